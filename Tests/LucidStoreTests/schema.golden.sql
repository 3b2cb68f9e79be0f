CREATE TABLE device_states (
    user_id      TEXT    NOT NULL REFERENCES users (id),
    device_id    TEXT    NOT NULL,
    -- The state as JSON: {"mode":"selecting","dreamIds":[…]}, ids as the client sent them
    -- (they are checked against the journal when the state is read).
    state        TEXT    NOT NULL,
    -- Milliseconds since 1970-01-01T00:00:00Z: the last PUT, and the last PUT or GET.
    updated_at   INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, device_id)
) STRICT;
CREATE VIRTUAL TABLE dream_revision_spans USING rtree_i32 (
    id,
    journal_min, journal_max,
    from_version, until_version
);
CREATE TABLE "dream_revision_spans_node"(nodeno INTEGER PRIMARY KEY,data);
CREATE TABLE "dream_revision_spans_parent"(nodeno INTEGER PRIMARY KEY,parentnode);
CREATE TABLE "dream_revision_spans_rowid"(rowid INTEGER PRIMARY KEY,nodeno);
CREATE TABLE dream_revisions (
    id            INTEGER PRIMARY KEY,
    user_id       TEXT    NOT NULL,
    dream_id      TEXT    NOT NULL,
    from_version  INTEGER NOT NULL,
    until_version INTEGER NOT NULL DEFAULT 9223372036854775807,
    -- The dream's place: rows sort by this key (fractional indexing), so a move rewrites one row.
    order_key     TEXT    NOT NULL,
    description   TEXT    NOT NULL,
    creature      TEXT    NOT NULL,
    -- The set of effects as bits, bit n for the n-th effect in declaration order.
    effects       INTEGER NOT NULL CHECK (effects BETWEEN 0 AND 63),
    creatures     INTEGER NOT NULL CHECK (creatures BETWEEN 1 AND 99),
    dreamt_on     TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL, lucid INTEGER NOT NULL DEFAULT 0 CHECK (lucid IN (0, 1)), tags TEXT NOT NULL DEFAULT '[]'
    CHECK (json_type(tags) = 'array' AND json_array_length(tags) <= 20),
    UNIQUE (user_id, dream_id, from_version),
    CHECK (from_version < until_version)
) STRICT;
CREATE INDEX dream_revisions_by_from ON dream_revisions (user_id, from_version);
CREATE INDEX dream_revisions_by_until ON dream_revisions (user_id, until_version, order_key);
CREATE INDEX dream_revisions_live_by_from ON dream_revisions (user_id, from_version)
WHERE until_version = 9223372036854775807;
CREATE TRIGGER dream_revisions_span_ends AFTER UPDATE OF until_version ON dream_revisions
WHEN OLD.until_version = 9223372036854775807 AND NEW.until_version != 9223372036854775807 BEGIN
    INSERT OR IGNORE INTO journals (user_id) VALUES (NEW.user_id);
    INSERT INTO dream_revision_spans (id, journal_min, journal_max, from_version, until_version)
    SELECT NEW.id, number, number, min(NEW.from_version, 2147483647), min(NEW.until_version, 2147483647)
    FROM journals WHERE user_id = NEW.user_id;
END;
CREATE VIRTUAL TABLE dream_search USING fts5 (
    words,
    content = 'dream_search_content',
    content_rowid = 'id',
    tokenize = 'ascii',
    detail = none,
    columnsize = 0
);
CREATE TABLE 'dream_search_config'(k PRIMARY KEY, v) WITHOUT ROWID;
CREATE VIEW dream_search_content (id, words) AS
SELECT id, CASE WHEN words = '' THEN '' ELSE
    lower(substr(user_id, 1, 8)) || replace(words, ' ', ' ' || lower(substr(user_id, 1, 8))) END
FROM dream_search_rows;
CREATE TABLE 'dream_search_data'(id INTEGER PRIMARY KEY, block BLOB);
CREATE TABLE 'dream_search_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;
CREATE TABLE dream_search_rows (
    id       INTEGER PRIMARY KEY,
    user_id  TEXT    NOT NULL,
    dream_id TEXT    NOT NULL,
    words    TEXT    NOT NULL,
    UNIQUE (user_id, dream_id)
) STRICT;
CREATE TRIGGER dream_search_rows_delete AFTER DELETE ON dream_search_rows BEGIN
    INSERT INTO dream_search (dream_search, rowid, words)
    VALUES ('delete', OLD.id, CASE WHEN OLD.words = '' THEN '' ELSE
        lower(substr(OLD.user_id, 1, 8)) || replace(OLD.words, ' ', ' ' || lower(substr(OLD.user_id, 1, 8))) END);
END;
CREATE TRIGGER dream_search_rows_insert AFTER INSERT ON dream_search_rows BEGIN
    INSERT INTO dream_search (rowid, words)
    SELECT id, words FROM dream_search_content WHERE id = NEW.id;
END;
CREATE TRIGGER dream_search_rows_update AFTER UPDATE ON dream_search_rows BEGIN
    INSERT INTO dream_search (dream_search, rowid, words)
    VALUES ('delete', OLD.id, CASE WHEN OLD.words = '' THEN '' ELSE
        lower(substr(OLD.user_id, 1, 8)) || replace(OLD.words, ' ', ' ' || lower(substr(OLD.user_id, 1, 8))) END);
    INSERT INTO dream_search (rowid, words)
    SELECT id, words FROM dream_search_content WHERE id = NEW.id;
END;
CREATE TABLE idempotency_keys (
    user_id     TEXT    NOT NULL,
    key         TEXT    NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    -- SHA-256 of what the request asked: method, path, If-Match and body. A retry must match it.
    fingerprint BLOB    NOT NULL CHECK (length(fingerprint) = 32),
    -- When the request ran, in milliseconds since 1970-01-01T00:00:00Z; the key is
    -- forgotten a configurable time after.
    created_at  INTEGER NOT NULL,
    -- The answer: a success, or a client error the same request would always get again.
    status      INTEGER NOT NULL CHECK (status BETWEEN 200 AND 499),
    -- Its headers, one "Name: value" per line (Content-Type, ETag, Location).
    headers     TEXT    NOT NULL,
    body        BLOB    NOT NULL, session TEXT, version INTEGER,
    PRIMARY KEY (user_id, key)
) STRICT;
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at) WHERE version IS NULL;
CREATE TABLE journals (
    number  INTEGER PRIMARY KEY,
    user_id TEXT    NOT NULL UNIQUE
) STRICT;
CREATE TABLE schema_migrations (
    name       TEXT    PRIMARY KEY,
    applied_at INTEGER NOT NULL DEFAULT (unixepoch())
) STRICT;
CREATE TABLE search_backfill (
    user_id TEXT PRIMARY KEY
) STRICT;
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
CREATE INDEX sessions_by_expiry ON sessions (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX sessions_by_user ON sessions (user_id, created_at, id);
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
CREATE TABLE users (
    id            TEXT    PRIMARY KEY,
    username      TEXT    NOT NULL UNIQUE,
    -- A self-describing argon2id string: "$argon2id$v=19$m=…,t=…,p=…$salt$hash".
    password_hash TEXT    NOT NULL,
    -- Milliseconds since 1970-01-01T00:00:00Z.
    created_at    INTEGER NOT NULL
) STRICT;
CREATE TABLE versions (
    user_id     TEXT    NOT NULL,
    version     INTEGER NOT NULL CHECK (version > 0),
    kind        TEXT    NOT NULL CHECK (kind IN ('change', 'undo', 'redo')),
    -- When it was made: milliseconds since 1970-01-01T00:00:00Z.
    at          INTEGER NOT NULL,
    -- For a change: the actions that made it, as a JSON array.
    actions     TEXT,
    -- For an undo or redo: the version of the change it reverts or reapplies.
    target      INTEGER,
    -- The favorite creature at this version.
    favorite    TEXT    NOT NULL,
    -- The undo and redo stacks are persistent linked lists whose entries are versions: every
    -- version pushes one entry (a change or redo onto the undo stack, an undo onto the redo
    -- stack). `entry_below` is the entry this version's own sits on; `undo_top` and
    -- `redo_top` are the tops of the two stacks after this version.
    entry_below INTEGER,
    undo_top    INTEGER,
    redo_top    INTEGER,
    PRIMARY KEY (user_id, version),
    CHECK ((kind = 'change') = (actions IS NOT NULL)),
    CHECK ((kind = 'change') = (target IS NULL))
) STRICT;
