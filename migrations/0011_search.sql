-- Full-text search over the dreams live now (not over history): one row per live dream with
-- the words of its description and tags, and an FTS5 index of those words. The store writes
-- the rows in the transaction that writes each version, from the same diff, so a search
-- answered after a write, an undo or a redo sees it.
--
-- The words are made by Lucid, not by SQLite: folded (case and diacritics gone) and split
-- by one Swift function (SearchText) that the PostgreSQL store uses too, so both stores
-- find the same dreams for the same query. FTS5's `ascii` tokenizer then only splits the
-- stored text at its spaces (every non-ASCII character is a token character to it, and the
-- words hold no ASCII punctuation), and queries are built from the same words, quoted.
--
-- External content rather than contentless: with SQLite before 3.43 a contentless table can
-- only forget a row when told every word the row had, and an external content table is told
-- them by a trigger from its content row. So deleting a row (a dream deleted, or every row of
-- a user: DELETE FROM dream_search_rows WHERE user_id = ?) is plain SQL, and 'rebuild' and
-- 'integrity-check' work. The content table keeps each dream's words once, unprefixed; the
-- content FTS5 sees is a view that puts the journal's key before every word.
--
-- The journal's key: the first 8 hexadecimal digits of the user id, put before each word in
-- the index ("8998739a" + "violet"), so that a lookup, above all of a short prefix ("a*"),
-- reads only the journal's own words, not every journal's. A journal is found again by
-- user_id, so two users whose ids share a key never see each other's dreams.

-- One row per live dream: its words (SearchText.indexedWords), joined by single spaces.
CREATE TABLE dream_search_rows (
    id       INTEGER PRIMARY KEY,
    user_id  TEXT    NOT NULL,
    dream_id TEXT    NOT NULL,
    words    TEXT    NOT NULL,
    UNIQUE (user_id, dream_id)
) STRICT;

-- The rows as the index holds them: each word after the journal's key.
CREATE VIEW dream_search_content (id, words) AS
SELECT id, CASE WHEN words = '' THEN '' ELSE
    lower(substr(user_id, 1, 8)) || replace(words, ' ', ' ' || lower(substr(user_id, 1, 8))) END
FROM dream_search_rows;

-- detail=none and columnsize=0: search needs which dreams hold a word, not where, how often
-- or in how long a text (Lucid counts and ranks over the dreams in memory), and the index is
-- smallest, and a write cheapest, without positions and sizes.
CREATE VIRTUAL TABLE dream_search USING fts5 (
    words,
    content = 'dream_search_content',
    content_rowid = 'id',
    tokenize = 'ascii',
    detail = none,
    columnsize = 0
);

CREATE TRIGGER dream_search_rows_insert AFTER INSERT ON dream_search_rows BEGIN
    INSERT INTO dream_search (rowid, words)
    SELECT id, words FROM dream_search_content WHERE id = NEW.id;
END;

CREATE TRIGGER dream_search_rows_delete AFTER DELETE ON dream_search_rows BEGIN
    INSERT INTO dream_search (dream_search, rowid, words)
    VALUES ('delete', OLD.id, CASE WHEN OLD.words = '' THEN '' ELSE
        lower(substr(OLD.user_id, 1, 8)) || replace(OLD.words, ' ', ' ' || lower(substr(OLD.user_id, 1, 8))) END);
END;

CREATE TRIGGER dream_search_rows_update AFTER UPDATE ON dream_search_rows BEGIN
    INSERT INTO dream_search (dream_search, rowid, words)
    VALUES ('delete', OLD.id, CASE WHEN OLD.words = '' THEN '' ELSE
        lower(substr(OLD.user_id, 1, 8)) || replace(OLD.words, ' ', ' ' || lower(substr(OLD.user_id, 1, 8))) END);
    INSERT INTO dream_search (rowid, words)
    SELECT id, words FROM dream_search_content WHERE id = NEW.id;
END;

-- The journals whose live dreams are not indexed yet: every journal with a dream when this
-- migration runs. Folding words is Swift's job, so the store indexes each of them when it
-- opens the database, right after migrating and before it answers anything, one journal per
-- transaction that also deletes its row here (a store stopped half-way goes on next time).
CREATE TABLE search_backfill (
    user_id TEXT PRIMARY KEY
) STRICT;

INSERT INTO search_backfill (user_id)
SELECT DISTINCT user_id FROM dream_revisions WHERE until_version = 9223372036854775807;
