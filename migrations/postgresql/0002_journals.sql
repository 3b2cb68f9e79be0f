-- Journals, as in the SQLite store: a version is a whole model stored as what changed, so
-- any version can be read back whole and an edit writes about the size of the change.
-- Every table is keyed by user first: a journal's rows stay together, and the schema can be
-- distributed by user_id (Citus) without changing a query.

-- The head of each journal: the row every write locks (SELECT … FOR UPDATE), so writes to
-- one journal from any number of instances take turns and each checks the version it
-- expects against this one. Readers compare their cached head's version with it.
CREATE TABLE journals (
    user_id  uuid   PRIMARY KEY,
    version  bigint NOT NULL CHECK (version >= 0),
    undo_top bigint,
    redo_top bigint
);

-- One row per accepted change, undo or redo.
CREATE TABLE versions (
    user_id     uuid   NOT NULL,
    version     bigint NOT NULL CHECK (version > 0),
    kind        text   NOT NULL CHECK (kind IN ('change', 'undo', 'redo')),
    -- When it was made: milliseconds since 1970-01-01T00:00:00Z.
    at          bigint NOT NULL,
    -- For a change: the actions that made it, as a JSON array (text: kept byte for byte).
    actions     text,
    -- For an undo or redo: the version of the change it reverts or reapplies.
    target      bigint,
    favorite    text   NOT NULL,
    -- The undo and redo stacks as persistent linked lists of versions (see the SQLite schema).
    entry_below bigint,
    undo_top    bigint,
    redo_top    bigint,
    PRIMARY KEY (user_id, version),
    CHECK ((kind = 'change') = (actions IS NOT NULL)),
    CHECK ((kind = 'change') = (target IS NULL))
);

-- One row per revision of a dream, live from `from_version` up to, not including,
-- `until_version` (the largest bigint while it is live now).
CREATE TABLE dream_revisions (
    user_id       uuid    NOT NULL,
    dream_id      uuid    NOT NULL,
    from_version  bigint  NOT NULL,
    until_version bigint  NOT NULL DEFAULT 9223372036854775807,
    -- Fractional-indexing keys compare byte by byte, as in Swift and SQLite: collation "C".
    order_key     text    COLLATE "C" NOT NULL,
    description   text    NOT NULL,
    creature      text    NOT NULL,
    effects       integer NOT NULL CHECK (effects BETWEEN 0 AND 63),
    creatures     integer NOT NULL CHECK (creatures BETWEEN 1 AND 99),
    dreamt_on     text    NOT NULL,
    created_at    bigint  NOT NULL,
    updated_at    bigint  NOT NULL,
    PRIMARY KEY (user_id, dream_id, from_version),
    CHECK (from_version < until_version)
);

-- The live dreams of a journal in order: what loading a head reads.
CREATE INDEX dream_revisions_live ON dream_revisions (user_id, order_key)
WHERE until_version = 9223372036854775807;
-- The revisions a version ended (undo brings them back) and began (redo does).
CREATE INDEX dream_revisions_by_until ON dream_revisions (user_id, until_version);
CREATE INDEX dream_revisions_by_from ON dream_revisions (user_id, from_version);

-- Idempotency keys: the answer to a request sent with `Idempotency-Key`, written in the same
-- transaction as the version the request made.
CREATE TABLE idempotency_keys (
    user_id     uuid    NOT NULL,
    key         text    NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    fingerprint bytea   NOT NULL CHECK (length(fingerprint) = 32),
    created_at  bigint  NOT NULL,
    status      integer NOT NULL CHECK (status BETWEEN 200 AND 499),
    headers     text    NOT NULL,
    body        bytea   NOT NULL,
    -- For a keyed registration or sign-in: the token hash of the session it opened.
    session     text,
    PRIMARY KEY (user_id, key)
);

CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);

-- Each device's list-screen state: not journal history.
CREATE TABLE device_states (
    user_id      uuid   NOT NULL REFERENCES users (id),
    device_id    uuid   NOT NULL,
    state        text   NOT NULL,
    updated_at   bigint NOT NULL,
    last_seen_at bigint NOT NULL,
    PRIMARY KEY (user_id, device_id)
);

-- Share links: dreams frozen as they were at a version; the token is stored only as a hash.
CREATE TABLE shares (
    user_id    uuid   NOT NULL REFERENCES users (id),
    id         uuid   NOT NULL,
    token_hash text   NOT NULL UNIQUE,
    version    bigint NOT NULL,
    dreams     text   NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    PRIMARY KEY (user_id, id)
);

CREATE INDEX shares_by_expiry ON shares (expires_at);
