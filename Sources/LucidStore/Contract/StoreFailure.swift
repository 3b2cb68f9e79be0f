/// A database failure, whichever database it came from.
public struct StoreFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure callers treat differently.
    public enum Kind: Hashable, Sendable {
        /// Busy, locked, or unreachable for now: the same request may succeed later.
        case busy
        /// The disk is full.
        case full
        /// The database cannot be written (a read-only file, a standby server).
        case readOnly
        /// A constraint refused the statement.
        case constraint
        /// Anything else: I/O errors, corruption, misuse.
        case other
    }

    public var kind: Kind
    /// The database's own words, with its code: for the log, never for the client.
    public var description: String

    /// A failure of `kind` that the database described as `description`.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
