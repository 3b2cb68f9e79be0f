import LucidMigrations

/// The tables of one account's file on a device. A change and its place in the queue are one
/// row, written in the transaction that makes the change.
enum DeviceSchema {
    static let migrations = [
        Migration(name: "0001_device_journal", sql: """
            CREATE TABLE account (
                id       INTEGER PRIMARY KEY CHECK (id = 1),
                server   TEXT    NOT NULL,
                username TEXT    NOT NULL,
                token    TEXT
            ) STRICT;
            CREATE TABLE server_state (
                id        INTEGER PRIMARY KEY CHECK (id = 1),
                version   INTEGER NOT NULL,
                favorite  BLOB    NOT NULL
            ) STRICT;
            CREATE TABLE server_dreams (
                id        TEXT PRIMARY KEY,
                order_key TEXT NOT NULL UNIQUE,
                body      BLOB NOT NULL
            ) STRICT;
            CREATE TABLE pending (
                seq                INTEGER PRIMARY KEY AUTOINCREMENT,
                key                TEXT    NOT NULL UNIQUE,
                request            BLOB    NOT NULL,
                may_have_been_sent INTEGER NOT NULL DEFAULT 0,
                accepted_as        INTEGER
            ) STRICT;
            CREATE TABLE rejected (
                seq     INTEGER PRIMARY KEY AUTOINCREMENT,
                key     TEXT    NOT NULL UNIQUE,
                request BLOB    NOT NULL,
                status  INTEGER NOT NULL,
                problem BLOB    NOT NULL
            ) STRICT;
            CREATE TABLE redo_steps (
                seq     INTEGER PRIMARY KEY AUTOINCREMENT,
                key     TEXT,
                request BLOB
            ) STRICT;
            CREATE TABLE sync_status (
                id         INTEGER PRIMARY KEY CHECK (id = 1),
                state      TEXT    NOT NULL,
                retry_at   INTEGER,
                last_error TEXT
            ) STRICT;
            """),
        // Attempts of a change the server failed (5xx) while it answered other requests,
        // counted across runs: a change it always fails is set aside, not retried forever.
        Migration(name: "0002_failed_attempts", sql: """
            ALTER TABLE pending ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
            """),
        // For an undo or redo waiting for the version of the change before it, the journal's
        // version as the user knew it (Change.seen): it never acts on versions they had not seen.
        Migration(name: "0003_step_seen", sql: """
            ALTER TABLE pending ADD COLUMN seen INTEGER;
            """),
        // The token moved to the device's credential store (`account.token` is NULL from then
        // on); a new token counts here, so that other processes' stores see the file change
        // and read the token again.
        Migration(name: "0004_token_changes", sql: """
            ALTER TABLE account ADD COLUMN token_changes INTEGER NOT NULL DEFAULT 0;
            """),
    ]
}
