-- Reading an old version must cost about the size of that version. The revisions live at
-- version v are those with from_version <= v < until_version: a stabbing query over
-- intervals, which no B-tree index answers well (by until_version it reads every revision
-- ended after v, by from_version every one begun before it). So the two kinds of revision
-- are found apart:
-- - a revision still live is live at v if it began by v: a partial index of the live
--   revisions by from_version finds exactly those;
-- - a revision that has ended is a fixed interval: an R*Tree over (journal, from_version ..
--   until_version) finds those that contain v in about log(n) + the rows found. A revision
--   enters it once, when it ends, and never changes there.
-- Triggers keep both in the same transaction as the revisions.

-- A small number per journal: the R*Tree's coordinates are 32-bit integers.
CREATE TABLE journals (
    number  INTEGER PRIMARY KEY,
    user_id TEXT    NOT NULL UNIQUE
) STRICT;

-- dream_revisions again, now with an INTEGER PRIMARY KEY for the R*Tree to refer to: an
-- implicit rowid may change under VACUUM, an INTEGER PRIMARY KEY never does.
ALTER TABLE dream_revisions RENAME TO dream_revisions_0001;

-- One row per revision of a dream: the revision is live from `from_version` up to, not
-- including, `until_version` (the largest integer while it is live now). Editing one dream
-- closes one row and adds one, whatever the size of the journal.
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
    updated_at    INTEGER NOT NULL,
    UNIQUE (user_id, dream_id, from_version),
    CHECK (from_version < until_version)
) STRICT;

INSERT INTO dream_revisions (
    user_id, dream_id, from_version, until_version, order_key, description, creature, effects, creatures,
    dreamt_on, created_at, updated_at)
SELECT user_id, dream_id, from_version, until_version, order_key, description, creature, effects, creatures,
       dreamt_on, created_at, updated_at
FROM dream_revisions_0001 ORDER BY rowid;

-- Dropping the old table drops its indexes, whose names the new ones take.
DROP TABLE dream_revisions_0001;

-- The live dreams of a journal in order, and the revisions an undo brings back.
CREATE INDEX dream_revisions_by_until ON dream_revisions (user_id, until_version, order_key);
-- The revisions a redo brings back.
CREATE INDEX dream_revisions_by_from ON dream_revisions (user_id, from_version);

-- The live revisions of a journal by when they began.
CREATE INDEX dream_revisions_live_by_from ON dream_revisions (user_id, from_version)
WHERE until_version = 9223372036854775807;

-- Each ended revision as a box: a point on the journal axis, and on the version axis the
-- versions from from_version to until_version. Versions past 2^31 - 1 are stored as
-- 2^31 - 1, so a box only ever grows: a query finds a superset of the rows it wants and
-- checks each against dream_revisions.
CREATE VIRTUAL TABLE dream_revision_spans USING rtree_i32 (
    id,
    journal_min, journal_max,
    from_version, until_version
);

INSERT INTO journals (user_id) SELECT DISTINCT user_id FROM dream_revisions;

INSERT INTO dream_revision_spans (id, journal_min, journal_max, from_version, until_version)
SELECT r.id, j.number, j.number, min(r.from_version, 2147483647), min(r.until_version, 2147483647)
FROM dream_revisions AS r JOIN journals AS j ON j.user_id = r.user_id
WHERE r.until_version != 9223372036854775807;

-- A revision enters the R*Tree when it ends (Lucid ends each revision once, and never
-- deletes one).
CREATE TRIGGER dream_revisions_span_ends AFTER UPDATE OF until_version ON dream_revisions
WHEN OLD.until_version = 9223372036854775807 AND NEW.until_version != 9223372036854775807 BEGIN
    INSERT OR IGNORE INTO journals (user_id) VALUES (NEW.user_id);
    INSERT INTO dream_revision_spans (id, journal_min, journal_max, from_version, until_version)
    SELECT NEW.id, number, number, min(NEW.from_version, 2147483647), min(NEW.until_version, 2147483647)
    FROM journals WHERE user_id = NEW.user_id;
END;
