-- A keyed change that made a version is known by its key for as long as that version is in
-- the history, as in the SQLite store's 0012: `version` is the version its answer left the
-- journal at; only answers without one (refusals, keyed registrations and sign-ins) are
-- forgotten after the key lifetime.
ALTER TABLE idempotency_keys ADD COLUMN version bigint;

UPDATE idempotency_keys
SET version = coalesce(substring(headers from 'ETag: "([0-9]+)')::bigint, 0)
WHERE status BETWEEN 200 AND 299 AND session IS NULL;

DROP INDEX idempotency_keys_by_age;
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at) WHERE version IS NULL;
