-- Sessions as their owner sees them in GET /v1/sessions, as in the SQLite store: an id to
-- name one by (random, never the token or anything derived from it), a name (the deviceName
-- given at sign-in, or one derived from the User-Agent), and when it was last used (written
-- at most once a minute). Sessions from before have no known name or use: they are named
-- "Unknown device" and taken as last used when they were made.
ALTER TABLE sessions
    ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid(),
    ADD COLUMN name text NOT NULL DEFAULT 'Unknown device',
    ADD COLUMN last_used_at bigint;
UPDATE sessions SET last_used_at = created_at;
-- Every new session comes with all three.
ALTER TABLE sessions
    ALTER COLUMN id DROP DEFAULT,
    ALTER COLUMN name DROP DEFAULT,
    ALTER COLUMN last_used_at SET NOT NULL,
    ADD CONSTRAINT sessions_id_key UNIQUE (id);

-- A user's sessions newest first (the list, and a password change revoking the others).
DROP INDEX sessions_by_user;
CREATE INDEX sessions_by_user ON sessions (user_id, created_at, id);
