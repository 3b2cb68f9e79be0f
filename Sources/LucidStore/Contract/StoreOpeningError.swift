/// Why a store could not be opened.
public enum StoreOpeningError: Error, Hashable, Sendable {
    /// The database's folder could not be created.
    case folder(String, String)
    /// The database could not be opened or its schema read, in the database's own words.
    case database(String)
    /// The database was migrated by a newer build: it records a migration this one lacks.
    case newerSchema(String)
    /// Another process (another server) has the database at this path open.
    case inUse(String)
    /// The lock file beside the database could not be opened or locked, and why.
    case lockFile(String, String)
    /// The database server could not be reached or refused what was asked of it, in its words.
    case server(String)
}
