/// One forward-only schema step: a file `migrations/NNNN_name.sql` embedded at build time.
public struct Migration: Hashable, Sendable {
    /// The file name without `.sql`, such as `0001_journals`; migrations run in name order.
    public let name: String
    public let sql: String

    /// A migration named `name` that runs `sql`.
    public init(name: String, sql: String) {
        self.name = name
        self.sql = sql
    }
}
