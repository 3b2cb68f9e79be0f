-- Each device's list-screen state, so that any launch returns to the screen the user left.
-- Kept per user and device (a UUID the client makes). Not journal history: setting it makes
-- no version, and undo never touches it.
CREATE TABLE device_states (
    user_id      TEXT    NOT NULL REFERENCES users (id),
    device_id    TEXT    NOT NULL,
    -- The state as JSON: {"mode":"selecting","dreamIds":[…]}, ids as the client sent them
    -- (they are checked against the journal when the state is read).
    state        TEXT    NOT NULL,
    -- Milliseconds since 1970-01-01T00:00:00Z: the last PUT, and the last PUT or GET.
    updated_at   INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, device_id)
) STRICT;
