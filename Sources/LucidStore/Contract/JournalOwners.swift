/// Whose journals a store keeps.
public enum JournalOwners: Sendable {
    /// Registered users only: a read or write of a journal, kept answer, device state or share
    /// whose user has no row in `users` is refused with ``JournalError/noSuchUser``. A request
    /// authenticated a moment before its account was deleted thus gets a refusal, never a
    /// journal made again from nothing. What a server uses.
    case registeredUsers
    /// Any id, registered or not: for tests and benchmarks that keep journals without
    /// accounts. Nothing is checked.
    case anyone
}
