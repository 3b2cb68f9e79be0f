-- Accounts, as in the SQLite store. Passwords are stored only as argon2id hashes, session
-- tokens only as hashes. Every table that holds a user's data names the user first, so the
-- schema can later be distributed by user (Citus distributes tables by such a column).
CREATE TABLE users (
    id            uuid    PRIMARY KEY,
    username      text    NOT NULL UNIQUE,
    -- A self-describing argon2id string: "$argon2id$v=19$m=…,t=…,p=…$salt$hash".
    password_hash text    NOT NULL,
    -- Milliseconds since 1970-01-01T00:00:00Z, as every time in this schema.
    created_at    bigint  NOT NULL
);

CREATE TABLE sessions (
    -- SHA-256 of the token, in hex. The token itself is shown once and never stored.
    token_hash text   PRIMARY KEY,
    user_id    uuid   NOT NULL REFERENCES users (id),
    created_at bigint NOT NULL,
    -- NULL: the session lasts until it is revoked.
    expires_at bigint
);

CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_at) WHERE expires_at IS NOT NULL;
