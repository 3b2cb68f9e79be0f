import Foundation
import LucidModel
import LucidSQLiteCore
import LucidStore

/// The checks of one journal, for `lucid check`: its versions run from 1 without gaps,
/// its undo and redo stacks link as the store links them, its revisions do not overlap,
/// and its models rebuild two independent ways to the same values at every version: from
/// the revision rows each version began and ended (as the change feed replays them), and
/// from each change's stored actions run through the reducer, each undo and redo being the
/// model of the version it returns to. At the head, both must equal what the store loads
/// (its live rows), and at a few versions on the way what it reads for an old version
/// (through the revision spans). Its rows of the search index hold the words of its live
/// dreams, and nothing else.
struct JournalCheck {
    /// The journal's user id as stored.
    let journal: String
    let tables: JournalTables

    /// How many versions a replay reads at once.
    private static let batch = 256
    /// How many versions on the way are also read as `GET /v1/versions/{n}` reads them.
    private static let samples = 16

    /// Every fault found, and how many versions the journal has.
    func run() throws(SQLiteError) -> (faults: [String], versions: Int) {
        guard let user = UUID(uuidString: journal), user.uuidString == journal else {
            return (["its user id is not written as Lucid writes ids, so it cannot be read"], 0)
        }
        let links = try self.links(of: user)
        var faults = VersionLinks.faults(in: links)
        let head = links.last?.version ?? 0
        faults += try revisionFaults(of: user, head: head)
        faults += try searchFaults(of: user)
        // A replay needs every version from 1 to the head.
        guard links.enumerated().allSatisfy({ $0.element.version == $0.offset + 1 }) else { return (faults, links.count) }
        faults += try replayFaults(of: user, links: links)
        return (faults, links.count)
    }

    private func links(of user: UUID) throws(SQLiteError) -> [VersionLinks] {
        try tables.connection.statement("""
            SELECT version, kind, target, entry_below, undo_top, redo_top FROM versions WHERE user_id = ? ORDER BY version
            """).query(.id(user)) { row in
                let kind: VersionLinks.Kind = switch (row.text(1), row.optionalInt(2)) {
                case ("undo", let target?): .undo(reverts: target)
                case ("redo", let target?): .redo(reapplies: target)
                // The table's CHECKs allow nothing else; a row that broke them is
                // reported by integrity_check, and reading it as a change goes on.
                default: .change
                }
                return VersionLinks(
                    version: row.int(0), kind: kind, entryBelow: row.optionalInt(3), undoTop: row.optionalInt(4),
                    redoTop: row.optionalInt(5))
            }
    }

    /// Revisions outside the journal's versions, dreams with two live revisions or with
    /// overlapping ones, and live dreams that share an order key.
    private func revisionFaults(of user: UUID, head: Int) throws(SQLiteError) -> [String] {
        let id = SQLValue.id(user)
        let live = JournalTables.live
        let connection = tables.connection
        var faults = try connection.statement("""
            SELECT lower(dream_id), from_version, until_version FROM dream_revisions
            WHERE user_id = ?1 AND (from_version < 1 OR from_version > ?2 OR (until_version != \(live) AND until_version > ?2))
            ORDER BY dream_id, from_version
            """).query(id, .integer(head)) { row in
                let until = row.integer(2) == live ? "still live" : "until version \(row.int(2))"
                let versions = head == 0 ? "the journal has no versions" : "the journal's versions run from 1 to \(head)"
                return "dream \(row.text(0)): a revision from version \(row.int(1)), \(until), lies outside them: \(versions)"
            }
        faults += try connection.statement("""
            SELECT lower(dream_id), count(*) FROM dream_revisions WHERE user_id = ? AND until_version = \(live)
            GROUP BY dream_id HAVING count(*) > 1 ORDER BY dream_id
            """).query(id) { "dream \($0.text(0)) has \($0.int(1)) live revisions" }
        faults += try connection.statement("""
            SELECT lower(dream_id), from_version, next_from FROM (
                SELECT dream_id, from_version, until_version,
                       lead(from_version) OVER (PARTITION BY dream_id ORDER BY from_version) AS next_from
                FROM dream_revisions WHERE user_id = ?
            ) WHERE next_from < until_version ORDER BY dream_id, from_version
            """).query(id) { "dream \($0.text(0)): its revision from version \($0.int(1)) overlaps the one from version \($0.int(2))" }
        faults += try connection.statement("""
            SELECT order_key, group_concat(lower(dream_id), ', ') FROM dream_revisions WHERE user_id = ? AND until_version = \(live)
            GROUP BY order_key HAVING count(*) > 1 ORDER BY order_key
            """).query(id) { "live dreams \($0.text(1)) share the order key \($0.text(0))" }
        return faults
    }

    /// Replays every version both ways and compares; stops at the first version where the
    /// two disagree (every later one would too).
    private func replayFaults(of user: UUID, links: [VersionLinks]) throws(SQLiteError) -> [String] {
        let head = links.count
        // The models an undo or redo returns to, kept as the replay passes them.
        var kept = Set<Int>()
        for link in links {
            switch link.kind {
            case .change: break
            case .undo(let change): kept.insert(change - 1)
            case .redo(let change): kept.insert(change)
            }
        }
        let sampled = Set((1...Self.samples).map { head * $0 / Self.samples })
        var fromRows = JournalHead.empty
        var keys = OrderKeys([])
        var fromActions = Model.empty
        var models: [Int: Model] = [0: .empty]
        let decoder = JSONDecoder()
        var after = 0
        while after < head {
            let rows = try tables.versions(of: user, after: after, through: min(head, after + Self.batch))
            guard let last = rows.last?.version, last > after else { return ["versions \(after + 1) to \(head) could not be read"] }
            after = last
            for row in rows {
                let version = row.version
                let step = fromRows.replaying(
                    row, ended: try tables.revisions(of: user, endedBy: version),
                    begun: try tables.revisions(of: user, begunBy: version), keys: &keys)
                let made: Model
                switch row.kind {
                case .change(let json):
                    guard let actions = try? decoder.decode([Action].self, from: Data(json.utf8)) else {
                        return ["version \(version) holds actions Lucid cannot read"]
                    }
                    do throws(BatchError) {
                        made = try fromActions.reduced(by: actions)
                    } catch {
                        return ["version \(version): the model before it refuses its action \(error.index + 1) (\(error.error))"]
                    }
                case .undo(let change), .redo(let change):
                    // A target that is not an earlier change was reported with the links.
                    guard let model = models[row.kind.isUndo ? change - 1 : change] else { return [] }
                    made = model
                }
                if step.diff != ModelDiff(from: fromActions, to: made) {
                    let source = switch row.kind {
                    case .change: "its actions make"
                    case .undo(let change): "it should return to (the model before version \(change), which it undoes)"
                    case .redo(let change): "it should return to (the model of version \(change), which it redoes)"
                    }
                    return ["version \(version): its revision rows make another model than \(source): \(Self.difference(step.head.model, made))"]
                }
                fromRows = step.head
                fromActions = made
                if kept.contains(version) { models[version] = made }
                if sampled.contains(version), version < head {
                    let read = Model(favoriteCreature: row.favorite, dreams: DreamList(try tables.dreams(of: user, at: version).map(\.dream)))
                    if read != made {
                        return ["version \(version) read as an old version (through the revision spans) differs from its "
                            + "replay: \(Self.difference(read, made))"]
                    }
                }
            }
        }
        var faults: [String] = []
        let (loaded, _) = try SQLiteJournalStore.load(user, from: tables)
        if loaded.model != fromActions {
            faults.append("its head as the server loads it (its live rows) differs from its replay: \(Self.difference(loaded.model, fromActions))")
        }
        let read = DreamList(try tables.dreams(of: user, at: head).map(\.dream))
        if read != loaded.model.dreams {
            faults.append("its head read as an old version (through the revision spans) differs from its live rows: "
                + Self.difference(Model(favoriteCreature: loaded.model.favoriteCreature, dreams: read), loaded.model))
        }
        return faults
    }

    /// How `stored` differs from `expected`, in a few words: at most three dreams named.
    static func difference(_ stored: Model, _ expected: Model) -> String {
        let diff = ModelDiff(from: expected, to: stored)
        var parts: [String] = []
        if let favorite = diff.favoriteCreature {
            parts.append("the favorite creature is \(favorite.storageName), not \(expected.favoriteCreature.storageName)")
        }
        parts += diff.deleted.map { "dream \($0.uuidString.lowercased()) is missing" }
        parts += diff.inserted.map { "dream \($0.dream.id.uuidString.lowercased()) should not be there" }
        parts += diff.updated.map { dream in
            let fields = expected.dream(dream.id).map { Self.fields(in: dream, differingFrom: $0) } ?? []
            return "dream \(dream.id.uuidString.lowercased()) differs in \(fields.isEmpty ? "its fields" : fields.joined(separator: ", "))"
        }
        parts += diff.moved.map { "dream \($0.id.uuidString.lowercased()) is out of place" }
        guard !parts.isEmpty else { return "they differ" }
        return parts.prefix(3).joined(separator: "; ") + (parts.count > 3 ? "; and \(parts.count - 3) more" : "")
    }

    private static func fields(in dream: Dream, differingFrom other: Dream) -> [String] {
        var names: [String] = []
        if dream.description != other.description { names.append("description") }
        if dream.creature != other.creature { names.append("creature") }
        if dream.effects != other.effects { names.append("effects") }
        if dream.numberOfCreatures != other.numberOfCreatures { names.append("numberOfCreatures") }
        if dream.dreamtOn != other.dreamtOn { names.append("dreamtOn") }
        if dream.createdAt != other.createdAt { names.append("createdAt") }
        if dream.updatedAt != other.updatedAt { names.append("updatedAt") }
        return names
    }
}

extension StoredKind {
    fileprivate var isUndo: Bool { if case .undo = self { true } else { false } }
}
