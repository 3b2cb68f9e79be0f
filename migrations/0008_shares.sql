-- Share links: dreams frozen as they were at a version, readable by anyone with the link.
-- The link's token is shown once, when the share is made, and stored only as a hash.
CREATE TABLE shares (
    -- Names the share in its owner's API (GET and DELETE /v1/shares/{id}).
    id          TEXT    PRIMARY KEY,
    user_id     TEXT    NOT NULL REFERENCES users (id),
    -- SHA-256 of the link's token, in hex.
    token_hash  TEXT    NOT NULL UNIQUE,
    -- The journal version the dreams were taken from.
    version     INTEGER NOT NULL,
    -- The shared dreams as a JSON array, in the order shared: a frozen copy, so later edits,
    -- deletes and undos of the journal never change it.
    dreams      TEXT    NOT NULL,
    -- Milliseconds since 1970-01-01T00:00:00Z.
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL
) STRICT;

CREATE INDEX shares_by_user ON shares (user_id, created_at);
