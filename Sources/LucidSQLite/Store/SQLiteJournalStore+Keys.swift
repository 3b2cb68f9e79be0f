public import Foundation
public import LucidModel
import LucidSQLiteCore
public import LucidStore

extension SQLiteJournalStore {
    /// What `key` of `user` answered: for good if the answer was kept with a write, else if
    /// it was used at or after `notBefore` (older uses have expired, whether or not their rows
    /// are deleted yet).
    public func outcome(of key: String, for user: UUID, notBefore: Timestamp) throws(JournalError) -> KeptOutcome? {
        try read(user) { (tables) throws(SQLiteError) in
            try KeyTables(connection: tables.connection).outcome(of: key, for: user, notBefore: notBefore)
        }
    }

    /// Keeps `answer` for `request` of `user` when the request made no version: a client
    /// error that the same request would always get again. Rides on the next group commit.
    public func keep(_ answer: KeptAnswer, for request: KeyedRequest, of user: UUID) throws(JournalError) {
        try writeRows(of: user) { (connection) throws(SQLiteError) in
            try KeyTables(connection: connection).keep(answer, for: request, of: user, version: nil)
        }
    }

    /// Deletes up to `limit` keys used before `cutoff`, oldest first; answers how many.
    public func deleteKeys(usedBefore cutoff: Timestamp, limit: Int) throws(JournalError) -> Int {
        try writeRows { (connection) throws(SQLiteError) in
            try KeyTables(connection: connection).deleteKeys(keptBefore: cutoff, limit: limit)
        }
    }
}
