import Foundation
import LucidModel
import LucidStore

/// One statement and its parameters ($1, $2, … as text; nil is NULL).
struct PGStatement: Sendable, Equatable {
    var sql: String
    var parameters: [String?]
}

/// The statements that write a group commit's versions, of any journals, and the answers
/// their idempotency keys keep: as few as can be, since every statement costs PostgreSQL a
/// round trip and an executor of its own, whatever it writes.
///
/// A statement writes many versions at once: it ends the revisions they end, begins their new
/// ones, adds their rows, changes the search index, keeps their answers and moves each
/// journal's head row to its last one. One snapshot serves a whole statement, so a version
/// goes into a statement of its own when it touches a dream (or a key) a version already in
/// the statement touched: its revision could not be ended there, or its index row written
/// twice. Adds never touch the same dream, so a group of adds is one statement.
///
/// A part with nothing to do is left out, not run on an empty array: each statement is
/// planned once per connection for any values (a generic plan), and a plan made while the
/// tables were young scans the journals' live revisions for ids there are none of.
struct PGWriteStatements {
    private(set) var statements: [PGStatement] = []
    private var open = Open()

    /// Past this many ended revisions, a version is written by a statement planned for many.
    static let manyEnded = 1_000

    /// What the statement being gathered writes.
    private struct Open {
        var touched: Set<Touch> = []
        var ended: [(user: String, dream: String, version: String)] = []
        var begun: [(user: String, version: String, record: DreamRecord)] = []
        var versions: [(user: String, row: VersionRow)] = []
        var unsearched: [(user: String, dream: String)] = []
        var searched: [(user: String, dream: String, lexemes: String)] = []
        var kept: [(user: String, request: KeyedRequest, answer: KeptAnswer, version: String?)] = []
        /// Each journal's newest version in the statement, in the order journals came.
        var heads: [String: VersionRow] = [:]
        var journals: [String] = []

        var isEmpty: Bool { versions.isEmpty && kept.isEmpty }
    }

    private enum Touch: Hashable {
        case dream(UUID, UUID)
        case key(UUID, String)
    }

    /// Adds the version `plan` makes of `user`'s journal, whose search index changes by `search`.
    mutating func add(_ plan: VersionPlan, search: SearchIndexChange, of user: UUID) {
        let ids = plan.ended + plan.records.map(\.dream.id) + search.removed + search.written.map(\.id)
        let touches = Set(ids.map { Touch.dream(user, $0) })
        if plan.ended.count > Self.manyEnded {
            close()
            gather(plan, search: search, of: user, touching: touches)
            close(planningForMany: true)
            return
        }
        if !open.touched.isDisjoint(with: touches) { close() }
        gather(plan, search: search, of: user, touching: touches)
    }

    /// Adds the answer `request` keeps, from `version` on (nil: it made none).
    mutating func keep(_ answer: KeptAnswer, for request: KeyedRequest, of user: UUID, version: Int?) {
        let touch = Touch.key(user, request.key)
        if open.touched.contains(touch) { close() }
        open.touched.insert(touch)
        open.kept.append((user.uuidString, request, answer, version.map(String.init)))
    }

    /// Every statement gathered so far, the last one closed; the next start afresh.
    mutating func take() -> [PGStatement] {
        close()
        defer { statements = [] }
        return statements
    }

    private mutating func gather(_ plan: VersionPlan, search: SearchIndexChange, of owner: UUID, touching touches: Set<Touch>) {
        let user = owner.uuidString, version = String(plan.row.version)
        open.touched.formUnion(touches)
        open.ended += plan.ended.map { (user, $0.uuidString, version) }
        open.begun += plan.records.map { (user, version, $0) }
        open.versions.append((user, plan.row))
        open.unsearched += search.removed.map { (user, $0.uuidString) }
        open.searched += search.written.map { (user, $0.id.uuidString, PGSearchRows.lexemes($0.words, of: owner)) }
        if open.heads[user] == nil { open.journals.append(user) }
        open.heads[user] = plan.row
    }

    /// Ends the statement being gathered, if it writes anything.
    private mutating func close(planningForMany many: Bool = false) {
        defer { open = Open() }
        guard !open.isEmpty else { return }
        let write = Self.statement(open, onlyOf: many ? open.journals.first : nil)
        // Ending many revisions at once (an import undone) must not depend on the plan the
        // statistics happen to give: with none yet the planner takes a journal for one row
        // and looks each ended id up in all of its live revisions, 10,000 by 10,000. That
        // statement, under its own text so that its plan is its own, is planned without
        // nested loops or whole-table scans: one hash of the ids, one pass over the live ones.
        statements += many
            ? [
                PGStatement(sql: "SELECT set_config('enable_nestloop', 'off', true), set_config('enable_seqscan', 'off', true)", parameters: []),
                write,
                PGStatement(
                    sql: "SELECT set_config(name, reset_val, true) FROM pg_settings WHERE name IN ('enable_nestloop', 'enable_seqscan')",
                    parameters: []),
            ]
            : [write]
    }

    /// The statement writing `open`. A statement of one journal's (`onlyOf`) also names it as
    /// a constant, so that each part's plan reads that journal's rows only.
    private static func statement(_ open: Open, onlyOf journal: String?) -> PGStatement {
        var statement = Builder()
        var parts: [String] = []
        let only = { (alias: String) in journal.map { " AND \(alias).user_id = \(statement.add(value: $0, as: "uuid"))" } ?? "" }
        if !open.ended.isEmpty {
            let arrays = [
                statement.add(open.ended.map(\.user), as: "uuid"), statement.add(open.ended.map(\.dream), as: "uuid"),
                statement.add(open.ended.map(\.version), as: "bigint"),
            ]
            parts.append("""
                ended AS (
                    UPDATE dream_revisions AS r SET until_version = e.version
                    FROM unnest(\(arrays.joined(separator: ", "))) AS e (user_id, id, version)
                    WHERE r.user_id = e.user_id AND r.dream_id = e.id AND r.until_version = \(PGJournalRows.live)\(only("r"))
                )
                """)
        }
        if !open.begun.isEmpty {
            let begun = open.begun
            func column(_ type: String, _ value: (DreamRecord) -> String) -> String { statement.add(begun.map { value($0.record) }, as: type) }
            let arrays = [
                statement.add(begun.map(\.user), as: "uuid"), statement.add(begun.map(\.version), as: "bigint"),
                column("uuid") { $0.dream.id.uuidString }, column("text") { $0.orderKey }, column("text") { $0.dream.description },
                column("text") { $0.dream.creature.storageName },
                column("integer") { String($0.dream.effects.reduce(0) { $0 | (1 << $1.ordinal) }) },
                column("integer") { String($0.dream.numberOfCreatures) }, column("text") { $0.dream.dreamtOn.iso8601 },
                column("bigint") { String($0.dream.createdAt.millisecondsSince1970) },
                column("bigint") { String($0.dream.updatedAt.millisecondsSince1970) },
                column("boolean") { $0.dream.lucid ? "true" : "false" }, column("jsonb") { StoredTags.json($0.dream.tags) },
            ]
            parts.append("""
                begun AS (
                    INSERT INTO dream_revisions (user_id, from_version, \(PGJournalRows.columns))
                    SELECT * FROM unnest(\(arrays.joined(separator: ", ")))
                )
                """)
        }
        if !open.versions.isEmpty {
            let rows = open.versions
            func column(_ type: String, _ value: (VersionRow) -> String?) -> String { statement.add(rows.map { value($0.row) }, as: type) }
            let arrays = [
                statement.add(rows.map(\.user), as: "uuid"), column("bigint") { String($0.version) }, column("text") { $0.kind.storedName },
                column("bigint") { String($0.at.millisecondsSince1970) }, column("text") { $0.kind.actionsJSON },
                column("bigint") { $0.kind.target.map(String.init) }, column("text") { $0.favorite.storageName },
                column("bigint") { $0.entryBelow.map(String.init) }, column("bigint") { $0.undoTop.map(String.init) },
                column("bigint") { $0.redoTop.map(String.init) },
            ]
            parts.append("""
                added AS (
                    INSERT INTO versions (user_id, version, kind, at, actions, target, favorite, entry_below, undo_top, redo_top)
                    SELECT * FROM unnest(\(arrays.joined(separator: ", ")))
                )
                """)
        }
        if !open.unsearched.isEmpty {
            let arrays = [statement.add(open.unsearched.map(\.user), as: "uuid"), statement.add(open.unsearched.map(\.dream), as: "uuid")]
            parts.append("""
                unsearched AS (
                    DELETE FROM dream_search AS s USING unnest(\(arrays.joined(separator: ", "))) AS d (user_id, id)
                    WHERE s.user_id = d.user_id AND s.dream_id = d.id\(only("s"))
                )
                """)
        }
        if !open.searched.isEmpty {
            let arrays = [
                statement.add(open.searched.map(\.user), as: "uuid"), statement.add(open.searched.map(\.dream), as: "uuid"),
                statement.add(open.searched.map(\.lexemes), as: "text"),
            ]
            parts.append("""
                searched AS (
                    INSERT INTO dream_search (user_id, dream_id, words)
                    SELECT s.user_id, s.id, array_to_tsvector(string_to_array(s.words, ' '))
                    FROM unnest(\(arrays.joined(separator: ", "))) AS s (user_id, id, words)
                    ON CONFLICT (user_id, dream_id) DO UPDATE SET words = EXCLUDED.words
                )
                """)
        }
        if !open.kept.isEmpty {
            let kept = open.kept
            let arrays = [
                statement.add(kept.map(\.user), as: "uuid"), statement.add(kept.map(\.request.key), as: "text"),
                statement.add(kept.map { Bytea.encode($0.request.fingerprint) }, as: "bytea"),
                statement.add(kept.map { String($0.request.at.millisecondsSince1970) }, as: "bigint"),
                statement.add(kept.map { String($0.answer.status) }, as: "integer"), statement.add(kept.map(\.answer.headerLines), as: "text"),
                statement.add(kept.map { Bytea.encode($0.answer.body) }, as: "bytea"), statement.add(kept.map(\.version), as: "bigint"),
            ]
            parts.append("""
                kept AS (
                    INSERT INTO idempotency_keys (user_id, key, fingerprint, created_at, status, headers, body, version)
                    SELECT * FROM unnest(\(arrays.joined(separator: ", ")))
                    ON CONFLICT (user_id, key) DO UPDATE SET
                        fingerprint = excluded.fingerprint, created_at = excluded.created_at, status = excluded.status,
                        headers = excluded.headers, body = excluded.body, session = NULL, version = excluded.version
                    WHERE idempotency_keys.version IS NULL
                )
                """)
        }
        let last: String
        if open.journals.isEmpty {
            // Only answers kept, no version: the statement's end reads nothing.
            last = "SELECT 1"
        } else {
            let heads = open.journals.map { ($0, open.heads[$0]!) }
            let arrays = [
                statement.add(heads.map(\.0), as: "uuid"), statement.add(heads.map { String($0.1.version) }, as: "bigint"),
                statement.add(heads.map { $0.1.undoTop.map(String.init) }, as: "bigint"),
                statement.add(heads.map { $0.1.redoTop.map(String.init) }, as: "bigint"),
            ]
            last = """
                UPDATE journals AS j SET version = h.version, undo_top = h.undo_top, redo_top = h.redo_top
                FROM unnest(\(arrays.joined(separator: ", "))) AS h (user_id, version, undo_top, redo_top) WHERE j.user_id = h.user_id\(only("j"))
                """
        }
        let sql = (journal != nil ? "-- many ended\n" : "") + (parts.isEmpty ? "" : "WITH " + parts.joined(separator: ", ") + "\n") + last
        return PGStatement(sql: sql, parameters: statement.parameters)
    }

    /// A statement's parameters, numbered as they are added.
    private struct Builder {
        private(set) var parameters: [String?] = []

        /// Adds `value` as one `type` and answers its placeholder, cast.
        mutating func add(value: String, as type: String) -> String {
            parameters.append(value)
            return "$\(parameters.count)::\(type)"
        }

        /// Adds `elements` as one array of `type` and answers its placeholder, cast.
        mutating func add(_ elements: [String?], as type: String) -> String {
            parameters.append(PGArray.literal(elements))
            return "$\(parameters.count)::\(type)[]"
        }
    }
}

extension StoredKind {
    /// What the `kind` column holds.
    fileprivate var storedName: String {
        switch self {
        case .change: "change"
        case .undo: "undo"
        case .redo: "redo"
        }
    }

    fileprivate var actionsJSON: String? {
        if case .change(let json) = self { json } else { nil }
    }

    fileprivate var target: Int? {
        switch self {
        case .change: nil
        case .undo(let version), .redo(let version): version
        }
    }
}
