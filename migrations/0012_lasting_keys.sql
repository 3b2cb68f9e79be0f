-- A keyed change that made a version is known by its key for as long as that version is in
-- the history, which is forever: a retry however late gets the answer the first attempt got,
-- instead of running again (a delete retried after a day would be refused 404, an add 409,
-- and a move applied twice). `version` is the version the answer left the journal at: the one
-- it made, or the one it found for a change that changed nothing. Only answers that made no
-- version (a refusal, or a keyed registration or sign-in) have none, and only those are
-- forgotten after the key lifetime.
ALTER TABLE idempotency_keys ADD COLUMN version INTEGER;

-- Every success kept so far answered a write (a registration or sign-in keeps a session, not
-- an answer); each answer's ETag, "12" or "12-…", starts with its version.
UPDATE idempotency_keys
SET version = CASE instr(headers, 'ETag: "')
    WHEN 0 THEN 0 ELSE CAST(substr(headers, instr(headers, 'ETag: "') + 7) AS INTEGER) END
WHERE status BETWEEN 200 AND 299 AND session IS NULL;

-- The sweep deletes the forgettable keys oldest first, and must not walk past the lasting ones.
DROP INDEX idempotency_keys_by_age;
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at) WHERE version IS NULL;
