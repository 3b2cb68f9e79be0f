import Foundation
import LucidPostgres
import LucidSQLite
import LucidStore

/// Where the journals live, as `--database` names it: a SQLite file, or a PostgreSQL
/// database that any number of `lucid serve` processes may share.
enum Database: Equatable {
    case sqlite(path: String)
    case postgres(url: String)

    /// A `postgresql://` or `postgres://` URL names PostgreSQL; anything else is a path.
    init(_ text: String) {
        self = text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") ? .postgres(url: text) : .sqlite(path: text)
    }

    /// The database as messages name it: a URL without its password.
    var redacted: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url):
            guard var parts = URLComponents(string: url) else { return "a PostgreSQL URL that cannot be read" }
            if parts.password != nil { parts.password = "redacted" }
            parts.queryItems = parts.queryItems?.map { $0.name == "password" ? URLQueryItem(name: "password", value: "redacted") : $0 }
            return parts.string ?? "a PostgreSQL URL"
        }
    }

    /// Opens both stores, applying any migrations the database lacks. The journal store keeps
    /// registered users' journals only: a request racing its account's deletion is refused.
    func open(connections: Int, headCacheBytes: Int) throws(StoreOpeningError) -> (any JournalStore, any AccountStore) {
        switch self {
        case .sqlite(let path):
            return (
                try SQLiteJournalStore(path: path, headCacheBytes: headCacheBytes, owners: .registeredUsers),
                try SQLiteAccountStore(path: path))
        case .postgres(let url):
            let journals = try PostgresJournalStore(
                url: url, connections: connections, headCacheBytes: headCacheBytes, owners: .registeredUsers)
            return (journals, PostgresAccountStore(sharing: journals))
        }
    }
}
