-- Dreams gain `lucid` and `tags`, as in the SQLite store's 0009. A column with a constant
-- default is added without rewriting the table (PostgreSQL 11 and later keep the default in
-- the catalog), so every revision written before reads back as it was: not lucid, no tags.
ALTER TABLE dream_revisions
    ADD COLUMN lucid boolean NOT NULL DEFAULT false,
    -- The tags as a JSON array of strings, in the dream's order, as the reducer keeps them
    -- (trimmed, no two alike without case): '[]' for none.
    ADD COLUMN tags jsonb NOT NULL DEFAULT '[]';

-- NOT VALID: checked for every row written from now on, without reading the existing rows
-- under the table's lock, all of which hold the default, which passes.
ALTER TABLE dream_revisions ADD CONSTRAINT dream_revisions_tags_check
    CHECK (jsonb_typeof(tags) = 'array' AND jsonb_array_length(tags) <= 20) NOT VALID;
