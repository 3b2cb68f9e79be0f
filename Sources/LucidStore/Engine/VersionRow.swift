import Foundation
import LucidJSON
package import LucidModel

/// What made a version, as `versions` holds it. A change's actions stay JSON until they
/// are asked for, so reading rows never decodes while it holds a connection.
package enum StoredKind: Sendable {
    case change(json: String)
    case undo(reverts: Int)
    case redo(reapplies: Int)
}

/// A row of `versions`.
package struct VersionRow: Sendable {
    package var version: Int
    package var kind: StoredKind
    package var at: Timestamp
    package var favorite: Creature
    package var entryBelow: Int?
    package var undoTop: Int?
    package var redoTop: Int?

    package init(
        version: Int, kind: StoredKind, at: Timestamp, favorite: Creature, entryBelow: Int?, undoTop: Int?, redoTop: Int?
    ) {
        self.version = version
        self.kind = kind
        self.at = at
        self.favorite = favorite
        self.entryBelow = entryBelow
        self.undoTop = undoTop
        self.redoTop = redoTop
    }

    /// The change this version's stack entry stands for: itself, or the change it undid or redid.
    package var change: Int {
        switch kind {
        case .change: version
        case .undo(let target), .redo(let target): target
        }
    }
}

extension VersionRow {
    /// The history entry of this row, decoding a change's actions: done after the
    /// connection that read the row has been given back.
    package var entry: HistoryEntry {
        get throws(StoreFailure) {
            let kind: HistoryEntry.Kind
            switch self.kind {
            case .change(let json):
                guard let actions = try? JSONDecoder().decode([Action].self, from: Data(json.utf8)) else {
                    throw StoreFailure(.other, "version \(version) holds actions Lucid never writes")
                }
                kind = .change(actions)
            case .undo(let reverted): kind = .undo(reverts: reverted)
            case .redo(let reapplied): kind = .redo(reapplies: reapplied)
            }
            return HistoryEntry(version: version, kind: kind, at: at)
        }
    }

    /// The JSON a change's actions are stored as: the form history lists them in. Made
    /// before the write lock is taken, so the encoding does not hold up other writers, and
    /// written straight into bytes (an import of 30 MiB of dreams takes about that once).
    package static func encode(_ actions: [Action]) -> String {
        let imported = actions.lazy.compactMap { action in if case .importDreams(let batch) = action { batch.dreams } else { nil } }
        var writer = JSONWriter(capacity: imported.joined().reduce(512) { $0 + 320 + $1.description.utf8.count * 11 / 10 })
        writer.array(actions)
        return String(decoding: writer.takeBytes(), as: UTF8.self)
    }
}
