-- Idempotency keys: the answer to a request sent with `Idempotency-Key`, kept so that a
-- retry of the same request is answered the same way instead of running again. A key is
-- scoped to its user. The row is written in the same transaction as the version the request
-- made, so a crash keeps both or neither.
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
    body        BLOB    NOT NULL,
    PRIMARY KEY (user_id, key)
) STRICT;

-- Expired keys are deleted oldest first, in small batches.
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
