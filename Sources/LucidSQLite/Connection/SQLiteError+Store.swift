import LucidSQLiteCore
import LucidStore

extension SQLiteError {
    /// This failure as every store reports failures.
    var failure: StoreFailure {
        let kind: StoreFailure.Kind =
            switch kind {
            case .busy: .busy
            case .full: .full
            case .readOnly: .readOnly
            case .constraint: .constraint
            case .corrupt, .other: .other
            }
        return StoreFailure(kind, "SQLite \(code): \(message)")
    }
}

extension JournalError {
    /// A SQLite failure, as every store reports failures.
    static func storage(_ error: SQLiteError) -> JournalError { .storage(error.failure) }
}

extension AccountError {
    /// A SQLite failure, as every store reports failures.
    static func storage(_ error: SQLiteError) -> AccountError { .storage(error.failure) }
}
