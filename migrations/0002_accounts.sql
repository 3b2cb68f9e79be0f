-- Accounts. Passwords are stored only as argon2id hashes, session tokens only as hashes.
CREATE TABLE users (
    id            TEXT    PRIMARY KEY,
    username      TEXT    NOT NULL UNIQUE,
    -- A self-describing argon2id string: "$argon2id$v=19$m=…,t=…,p=…$salt$hash".
    password_hash TEXT    NOT NULL,
    -- Milliseconds since 1970-01-01T00:00:00Z.
    created_at    INTEGER NOT NULL
) STRICT;

CREATE TABLE sessions (
    -- SHA-256 of the token, in hex. The token itself is shown once and never stored.
    token_hash TEXT    PRIMARY KEY,
    user_id    TEXT    NOT NULL REFERENCES users (id),
    created_at INTEGER NOT NULL,
    -- NULL: the session lasts until it is revoked.
    expires_at INTEGER
) STRICT;

CREATE INDEX sessions_by_user ON sessions (user_id);
