-- Expired sessions are deleted in small batches, soonest expiry first: this index finds them
-- without reading every session. Sessions that never expire (NULL) stay out of it.
CREATE INDEX sessions_by_expiry ON sessions (expires_at) WHERE expires_at IS NOT NULL;
