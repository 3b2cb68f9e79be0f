-- The index through which a write ends the live revisions of the dreams it changes: looked
-- up by (journal, dream), so ending one costs the same at 10 dreams and at 10,000. Without it
-- a generic plan of that statement read every live revision of the journal. (Not unique: the
-- statement that ends a dream's live revision begins its next one, and a unique index is
-- checked row by row, in no promised order, within the statement.)
CREATE INDEX dream_revisions_live_by_dream ON dream_revisions (user_id, dream_id)
WHERE until_version = 9223372036854775807;
