-- Dreams gain `lucid` and `tags`. Each is a column with a constant default: SQLite records
-- the default in the table's schema and rewrites no row, so every revision written before
-- reads back as it was, not lucid and without tags. (Adding a CHECK reads the rows once, to
-- test them; it writes none.)

-- Whether the dreamer knew they were dreaming: 0 or 1.
ALTER TABLE dream_revisions ADD COLUMN lucid INTEGER NOT NULL DEFAULT 0 CHECK (lucid IN (0, 1));

-- The tags as a JSON array of strings, in the dream's order, as the reducer keeps them
-- (trimmed, no two alike without case): '[]' for none.
ALTER TABLE dream_revisions ADD COLUMN tags TEXT NOT NULL DEFAULT '[]'
    CHECK (json_type(tags) = 'array' AND json_array_length(tags) <= 20);
