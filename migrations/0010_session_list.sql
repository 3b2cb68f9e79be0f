-- Sessions as their owner sees them in GET /v1/sessions: an id to name one by (random, never
-- the token or anything derived from it), a name (the deviceName given at sign-in, or one
-- derived from the User-Agent), and when it was last used (written at most once a minute).
-- The table is rebuilt so the new columns are NOT NULL. Sessions from before have no known
-- name or use: they are named "Unknown device" and taken as last used when they were made.
ALTER TABLE sessions RENAME TO sessions_0002;

CREATE TABLE sessions (
    -- SHA-256 of the token, in hex. The token itself is shown once and never stored.
    token_hash   TEXT    PRIMARY KEY,
    -- A random UUID (uppercase, as every id in this schema), shown to the owner.
    id           TEXT    NOT NULL UNIQUE,
    user_id      TEXT    NOT NULL REFERENCES users (id),
    -- 1 to 100 characters, no control characters.
    name         TEXT    NOT NULL,
    -- Milliseconds since 1970-01-01T00:00:00Z.
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL,
    -- NULL: the session lasts until it is revoked.
    expires_at   INTEGER
) STRICT;

-- A version 4 UUID from random bits (each call of randomblob is fresh).
INSERT INTO sessions (token_hash, id, user_id, name, created_at, last_used_at, expires_at)
SELECT token_hash,
       hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-'
           || substr('89AB', 1 + (random() & 3), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)),
       user_id, 'Unknown device', created_at, created_at, expires_at
FROM sessions_0002;

-- Dropping the old table drops its indexes, whose names the new ones take.
DROP TABLE sessions_0002;

-- A user's sessions newest first (the list, and a password change revoking the others).
CREATE INDEX sessions_by_user ON sessions (user_id, created_at, id);
-- Expired sessions are deleted in small batches, soonest expiry first.
CREATE INDEX sessions_by_expiry ON sessions (expires_at) WHERE expires_at IS NOT NULL;
