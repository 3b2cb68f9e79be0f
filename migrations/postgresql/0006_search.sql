-- Full-text search over the dreams live now (not over history), as in the SQLite store's
-- 0011: one row per live dream with the words of its description and tags as a tsvector,
-- and a GIN index of them. The store writes the rows in the statement that writes each
-- version, from the same diff, so a search answered after a write, an undo or a redo sees it.
--
-- The words are made by Lucid (SearchText: folded, split), not by a text search
-- configuration: the store turns them into lexemes as they are (array_to_tsvector) and
-- builds queries as tsquery values from the same words, so both stores find the same
-- dreams and no query text is ever parsed as tsquery syntax. Lexemes carry no positions:
-- Lucid ranks over the dreams in memory.
--
-- Every lexeme starts with the journal's key, the first 8 hexadecimal digits of the user id
-- ("8998739a" + "violet"). A GIN index has no composite (user, word) key (btree_gin aside,
-- and even with it a prefix lookup such as 'a':* would read every journal's postings of
-- every word that begins with "a"); with the key in each lexeme a lookup, prefixes included,
-- reads only its own journal's postings. Rows are still found by user_id, so two users whose
-- ids share a key never see each other's dreams.
CREATE TABLE dream_search (
    user_id  uuid     NOT NULL,
    dream_id uuid     NOT NULL,
    words    tsvector NOT NULL,
    PRIMARY KEY (user_id, dream_id)
);

CREATE INDEX dream_search_words ON dream_search USING gin (words);

-- The journals whose live dreams are not indexed yet: every journal with a dream when this
-- migration runs. Folding words is Swift's job, so each store indexes them when it opens the
-- database, before it answers anything: one journal per transaction, holding the journal's
-- row lock (as every writer does) and deleting its row here; a store that finds the row gone
-- once it has the lock leaves the journal to whoever indexed it.
CREATE TABLE search_backfill (
    user_id uuid PRIMARY KEY
);

INSERT INTO search_backfill (user_id)
SELECT DISTINCT user_id FROM dream_revisions WHERE until_version = 9223372036854775807;
