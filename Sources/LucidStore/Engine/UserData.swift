/// Every kind of row a store keeps of a user besides the account and its sessions, in the
/// order a deletion removes them: rows before the rows they refer to.
///
/// Deleting an account deletes each kind in one transaction, and each store says in an
/// exhaustive `switch` which of its tables hold it, so a kind added here cannot be left out
/// by either store. A table added to a schema that holds a user's rows needs its kind here
/// (or its place under one): `AccountDeletionTests` fails for any table left with a row of a
/// deleted user.
package enum UserData: CaseIterable, Sendable {
    /// The ended revisions' spans, where a store indexes them apart from the revisions.
    case revisionSpans
    /// Every revision of every dream.
    case dreamRevisions
    /// Every version of the journal.
    case versions
    /// The journal's head row.
    case journal
    /// Kept answers of requests sent with an idempotency key.
    case idempotencyKeys
    /// Saved device states.
    case deviceStates
    /// Share links.
    case shares
    /// The search index's rows of the journal's dreams.
    case searchIndex
    /// Whether the journal still waits to be indexed.
    case searchBackfill
}
