import Foundation
import LucidModel
import LucidSQLiteCore
import LucidStore

extension JournalCheck {
    /// What is wrong with the journal's rows of the search index: a live dream without a
    /// row, or whose row holds other words than its description and tags make (a search
    /// would miss it or find it for words it no longer has), a row of a dream that is not
    /// live, and a journal the index has yet to be built for.
    func searchFaults(of user: UUID) throws(SQLiteError) -> [String] {
        let connection = tables.connection
        let id = SQLValue.id(user)
        if try connection.statement("SELECT count(*) FROM search_backfill WHERE user_id = ?").query(id, row: { $0.int(0) }).first != 0 {
            return ["its dreams are not in the search index yet (lucid serve indexes them when it starts)"]
        }
        var rows: [String: String] = [:]
        for (dream, words) in try connection.statement("SELECT dream_id, words FROM dream_search_rows WHERE user_id = ?")
            .query(id, row: { ($0.text(0), $0.text(1)) }) {
            rows[dream] = words
        }
        var faults: [String] = []
        for record in try tables.liveDreams(of: user) {
            let dream = record.dream
            let name = "dream \(dream.id.uuidString.lowercased())"
            switch rows.removeValue(forKey: dream.id.uuidString) {
            case nil: faults.append("\(name) is not in the search index, so no search finds it")
            case let words? where words != SearchIndexChange.words(of: dream):
                faults.append("\(name) has other words in the search index than its description and tags")
            default: break
            }
        }
        for dream in rows.keys.sorted() {
            faults.append("dream \(dream.lowercased()) is in the search index but not in the journal")
        }
        return faults
    }
}
