private import CSQLite

/// A failed SQLite call, with the message SQLite gave at the moment it failed.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The extended result code.
    public let code: Int32
    public let message: String

    /// A failure from `code` with SQLite's `message`.
    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// What kind of failure the primary result code says it is; the cases exclude each other.
    public enum Kind: Hashable, Sendable {
        /// Another connection holds a lock: trying again later may succeed.
        case busy
        /// The disk is full.
        case full
        /// The file cannot be written or opened.
        case readOnly
        /// A constraint refused the statement.
        case constraint
        /// The file is not a database, or not one SQLite can read whole.
        case corrupt
        case other
    }

    public var kind: Kind {
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_FULL: .full
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM: .readOnly
        case SQLITE_CONSTRAINT: .constraint
        case SQLITE_CORRUPT, SQLITE_NOTADB: .corrupt
        default: .other
        }
    }

    public var description: String { "SQLite error \(code): \(message)" }
}

extension SQLiteError {
    /// What the writers of a group are told when SQLite rolled their transaction back on
    /// its own and the statement that caused it is not theirs to report.
    package static let rolledBack = SQLiteError(
        code: SQLITE_ABORT, message: "the transaction was rolled back after a failed statement")

    /// A file whose rows hold what its writer never writes, as SQLite reports a damaged file.
    package static func corrupt(_ message: String) -> SQLiteError {
        SQLiteError(code: SQLITE_CORRUPT, message: message)
    }

    /// A failed sync to disk, as SQLite reports its own (`SQLITE_IOERR_FSYNC`): what was
    /// being done, and the system's reason.
    package static func syncFailed(_ doing: String, reason: String) -> SQLiteError {
        SQLiteError(code: SQLITE_IOERR | (4 << 8), message: "\(doing): \(reason)")
    }
}
