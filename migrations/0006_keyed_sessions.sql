-- A registration or sign-in sent with an Idempotency-Key opens a session whose token is shown
-- once and stored only as a hash, so its answer cannot be sent again. Its retry (the same key
-- and request, with a password that checks) is answered with a new token instead, and the
-- session the lost answer held is closed: one keyed request never leaves two sessions. The
-- key's row records that session's token hash.
ALTER TABLE idempotency_keys ADD COLUMN session TEXT;
