private import CSQLite
public import LucidStore

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

    /// How callers treat this failure.
    public var kind: StoreFailure.Kind {
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_FULL: .full
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM: .readOnly
        case SQLITE_CONSTRAINT: .constraint
        default: .other
        }
    }

    public var description: String { "SQLite error \(code): \(message)" }

    /// This failure as every store reports failures.
    public var failure: StoreFailure { StoreFailure(kind, "SQLite \(code): \(message)") }
}

extension SQLiteError {
    /// What the writers of a group are told when SQLite rolled their transaction back on
    /// its own and the statement that caused it is not theirs to report.
    static let rolledBack = SQLiteError(
        code: SQLITE_ABORT, message: "the transaction was rolled back after a failed statement")
}

extension JournalError {
    /// A SQLite failure, as every store reports failures.
    static func storage(_ error: SQLiteError) -> JournalError { .storage(error.failure) }
}

extension AccountError {
    /// A SQLite failure, as every store reports failures.
    static func storage(_ error: SQLiteError) -> AccountError { .storage(error.failure) }
}
