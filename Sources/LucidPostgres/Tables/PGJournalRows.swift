import Foundation
import LucidModel
import LucidStore

/// The journal SQL for PostgreSQL, over one connection. Every query is scoped by the user.
/// Values go in and come out as text; a row holding what Lucid never writes is an error.
struct PGJournalRows {
    let connection: PGConnection

    /// The `until_version` of a revision that is live now.
    static let live = "9223372036854775807"

    /// The journal's head row: its version and the tops of its stacks (version 0 if it has
    /// none yet). With `locking`, the row is locked until the transaction ends, and made
    /// first if the journal has none, so that every writer of the journal takes turns on it.
    func head(of user: UUID, locking: Bool = false) throws(PGError) -> (version: Int, undoTop: Int?, redoTop: Int?) {
        // Without a check of the owner, the head row is always there to lock.
        try head(of: user, locking: locking, owners: .anyone) ?? (0, nil, nil)
    }

    /// The journal's head row as ``head(of:locking:)`` reads it; `nil` if `owners` are
    /// registered users and `user` has none (any more). A journal with no head row yet is
    /// given one only while its user's row is there, held (`FOR KEY SHARE`) until the
    /// transaction ends: an account deletion, which locks the user's row first, then waits
    /// for the write, or the write for the deletion, and then finds no account.
    func head(
        of user: UUID, locking: Bool, owners: JournalOwners
    ) throws(PGError) -> (version: Int, undoTop: Int?, redoTop: Int?)? {
        let sql = "SELECT version, undo_top, redo_top FROM journals WHERE user_id = $1" + (locking ? " FOR UPDATE" : "")
        var rows = try connection.execute(sql, [user.uuidString]).rows
        if rows.isEmpty, locking {
            if owners == .registeredUsers,
               try connection.execute("SELECT 1 FROM users WHERE id = $1 FOR KEY SHARE", [user.uuidString]).rows.isEmpty {
                return nil
            }
            try connection.execute(
                "INSERT INTO journals (user_id, version) VALUES ($1, 0) ON CONFLICT (user_id) DO NOTHING", [user.uuidString])
            rows = try connection.execute(sql, [user.uuidString]).rows
        }
        guard let row = rows.first else { return (0, nil, nil) }
        guard let version = row[0].flatMap({ Int($0) }) else { throw Self.corrupt("journals") }
        return (version, row[1].flatMap { Int($0) }, row[2].flatMap { Int($0) })
    }

    /// Gives each of `users`' journals a head row if it has none, in key order, all in one
    /// statement; with `owners` registered users, only to users who have an account, whose
    /// row it holds (`FOR KEY SHARE`) until the statement's transaction ends, so that an
    /// account deletion (which locks the user's row first) waits for it and then deletes it.
    func createHeads(of users: [UUID], owners: JournalOwners) throws(PGError) {
        let source = owners == .registeredUsers
            ? "SELECT id FROM (SELECT id FROM users WHERE id = ANY ($1::uuid[]) ORDER BY id FOR KEY SHARE) AS owned"
            : "SELECT id FROM unnest($1::uuid[]) AS given (id) ORDER BY id"
        try connection.execute(
            "INSERT INTO journals (user_id, version) SELECT id, 0 FROM (\(source)) AS new ON CONFLICT (user_id) DO NOTHING",
            [PGArray.literal(users.map(\.uuidString))])
    }

    /// The head rows of `users`' journals, locked until the transaction ends, in one statement
    /// in the order of their keys, as every process locks them: two groups of journals wait
    /// for each other only one way. A user missing from the answer has no head row (see
    /// ``createHeads(of:owners:)``).
    func heads(of users: [UUID]) throws(PGError) -> [UUID: (version: Int, undoTop: Int?, redoTop: Int?)] {
        var heads: [UUID: (version: Int, undoTop: Int?, redoTop: Int?)] = [:]
        for row in try connection.execute(
            "SELECT user_id, version, undo_top, redo_top FROM journals WHERE user_id = ANY ($1::uuid[]) ORDER BY user_id FOR UPDATE",
            [PGArray.literal(users.map(\.uuidString))]
        ).rows {
            guard let user = row[0].flatMap(UUID.init(uuidString:)), let version = row[1].flatMap({ Int($0) }) else {
                throw Self.corrupt("journals")
            }
            heads[user] = (version, row[2].flatMap { Int($0) }, row[3].flatMap { Int($0) })
        }
        return heads
    }

    /// The journal's version (0 if it has no head row yet), or `nil` if `user` has no account.
    func ownedVersion(of user: UUID) throws(PGError) -> Int? {
        guard let row = try connection.execute(
            "SELECT coalesce((SELECT version FROM journals WHERE user_id = $1), 0) FROM users WHERE id = $1", [user.uuidString]
        ).rows.first else { return nil }
        guard let version = row[0].flatMap({ Int($0) }) else { throw Self.corrupt("journals") }
        return version
    }

    // MARK: Versions

    func version(_ version: Int, of user: UUID) throws(PGError) -> VersionRow? {
        try versions("FROM versions WHERE user_id = $1 AND version = $2", [user.uuidString, String(version)]).first
    }

    /// Versions below `before`, newest first: up to `limit` of them, and no more than fit in
    /// `budget` bytes of stored actions, except that the first is always included. The
    /// server counts the bytes, so a version that does not fit is never sent.
    func versions(of user: UUID, before: Int, limit: Int, budget: Int) throws(PGError) -> [VersionRow] {
        try versions(
            """
            FROM (
                SELECT *, row_number() OVER newest AS place, sum(coalesce(octet_length(actions), 0)) OVER newest AS bytes
                FROM versions WHERE user_id = $1 AND version < $2
                WINDOW newest AS (ORDER BY version DESC) ORDER BY version DESC LIMIT $3
            ) AS page
            WHERE place = 1 OR bytes <= $4 ORDER BY version DESC
            """, [user.uuidString, String(before), String(limit), String(budget)])
    }

    /// Versions after `after` up to and including `through`, oldest first.
    func versions(of user: UUID, after: Int, through: Int) throws(PGError) -> [VersionRow] {
        try versions(
            "FROM versions WHERE user_id = $1 AND version > $2 AND version <= $3 ORDER BY version",
            [user.uuidString, String(after), String(through)])
    }

    private func versions(_ clause: String, _ parameters: [String?]) throws(PGError) -> [VersionRow] {
        try connection.execute(
            "SELECT version, kind, at, actions, target, favorite, entry_below, undo_top, redo_top \(clause)", parameters
        ).rows.map { (row) throws(PGError) in
            guard let row = Self.versionRow(row) else { throw Self.corrupt("versions") }
            return row
        }
    }

    private static func versionRow(_ row: [String?]) -> VersionRow? {
        guard let version = row[0].flatMap({ Int($0) }), let at = row[2].flatMap({ Int64($0) }),
              let favorite = row[5].flatMap({ Creature(storageName: $0) })
        else { return nil }
        let kind: StoredKind
        switch (row[1], row[4].flatMap { Int($0) }) {
        case ("change", nil): guard let json = row[3] else { return nil }; kind = .change(json: json)
        case ("undo", let target?): kind = .undo(reverts: target)
        case ("redo", let target?): kind = .redo(reapplies: target)
        default: return nil
        }
        return VersionRow(
            version: version, kind: kind, at: Timestamp(millisecondsSince1970: at), favorite: favorite,
            entryBelow: row[6].flatMap { Int($0) }, undoTop: row[7].flatMap { Int($0) }, redoTop: row[8].flatMap { Int($0) })
    }

    /// The versions after `after` through `through`, oldest first, each with the revisions
    /// it ended and began: two queries, however many versions.
    func changes(of user: UUID, after: Int, through: Int) throws(PGError) -> [StoredChange] {
        let rows = try versions(of: user, after: after, through: through)
        guard !rows.isEmpty else { return [] }
        let range = (after + 1)...through
        var ended: [Int: [DreamRecord]] = [:], begun: [Int: [DreamRecord]] = [:]
        for row in try connection.execute("""
            SELECT from_version, until_version, \(Self.columns) FROM dream_revisions
            WHERE user_id = $1 AND (from_version > $2 AND from_version <= $3 OR until_version > $2 AND until_version <= $3)
            """, [user.uuidString, String(after), String(through)]).rows {
            guard let from = row[0].flatMap({ Int($0) }), let until = row[1].flatMap({ Int($0) }),
                  let record = Self.record(Array(row.dropFirst(2)))
            else { throw Self.corrupt("dream_revisions") }
            if range.contains(from) { begun[from, default: []].append(record) }
            if range.contains(until) { ended[until, default: []].append(record) }
        }
        return rows.map { ($0, ended[$0.version] ?? [], begun[$0.version] ?? []) }
    }

    /// The favorite creature at `version` (the default at 0).
    func favorite(of user: UUID, at version: Int) throws(PGError) -> Creature {
        guard version > 0 else { return .default }
        guard let row = try self.version(version, of: user) else { throw Self.corrupt("versions", "version \(version) is missing") }
        return row.favorite
    }

    /// The change behind the stack entry that `entry` pushed, with the rows it touched:
    /// three queries (the entry, the versions around the change, the change's revisions).
    func stackChange(_ entry: Int, of user: UUID) throws(PGError) -> StackChange {
        guard let row = try version(entry, of: user) else { throw Self.corrupt("versions", "version \(entry) is missing") }
        let change = row.change
        let around = try versions(
            "FROM versions WHERE user_id = $1 AND version = ANY ($2::bigint[])",
            [user.uuidString, PGArray.literal([String(change - 1), String(change)])])
        func favorite(at version: Int) throws(PGError) -> Creature {
            if version == 0 { return .default }
            guard let row = around.first(where: { $0.version == version }) else {
                throw Self.corrupt("versions", "version \(version) is missing")
            }
            return row.favorite
        }
        var before: [DreamRecord] = [], after: [DreamRecord] = []
        for row in try connection.execute("""
            SELECT from_version, until_version, \(Self.columns) FROM dream_revisions
            WHERE user_id = $1 AND (from_version = $2 OR until_version = $2)
            """, [user.uuidString, String(change)]).rows {
            guard let from = row[0].flatMap({ Int($0) }), let record = Self.record(Array(row.dropFirst(2))) else {
                throw Self.corrupt("dream_revisions")
            }
            if from == change { after.append(record) } else { before.append(record) }
        }
        return StackChange(
            version: change, below: row.entryBelow, before: before, after: after,
            favoriteBefore: try favorite(at: change - 1), favoriteAfter: try favorite(at: change))
    }

    // MARK: Revisions

    static let columns =
        "dream_id, order_key, description, creature, effects, creatures, dreamt_on, created_at, updated_at, lucid, tags"

    /// The dreams live now, in order.
    func liveDreams(of user: UUID) throws(PGError) -> [DreamRecord] {
        try records("WHERE user_id = $1 AND until_version = \(Self.live) ORDER BY order_key", [user.uuidString])
    }

    /// The dreams live at `version`, in order.
    func dreams(of user: UUID, at version: Int) throws(PGError) -> [DreamRecord] {
        try records(
            "WHERE user_id = $1 AND from_version <= $2 AND until_version > $2 ORDER BY order_key", [user.uuidString, String(version)])
    }

    private func records(_ clause: String, _ parameters: [String?]) throws(PGError) -> [DreamRecord] {
        try connection.execute("SELECT \(Self.columns) FROM dream_revisions \(clause)", parameters).rows.map { (row) throws(PGError) in
            guard let record = Self.record(row) else { throw Self.corrupt("dream_revisions") }
            return record
        }
    }

    private static func record(_ row: [String?]) -> DreamRecord? {
        guard let id = row[0].flatMap(UUID.init(uuidString:)), let key = row[1], let description = row[2],
              let creature = row[3].flatMap(Creature.init(storageName:)), let bits = row[4].flatMap({ Int($0) }),
              let count = row[5].flatMap({ Int($0) }), let day = row[6].flatMap(Day.init),
              let created = row[7].flatMap({ Int64($0) }), let updated = row[8].flatMap({ Int64($0) }),
              let lucid = row[9].flatMap({ ["t": true, "f": false][$0] }), let tags = row[10].flatMap(StoredTags.tags(json:))
        else { return nil }
        let effects = Set(Effect.allCases.filter { bits & (1 << $0.ordinal) != 0 })
        let dream = Dream(
            id: id, description: description, creature: creature, effects: effects, numberOfCreatures: count, dreamtOn: day,
            lucid: lucid, tags: tags,
            createdAt: Timestamp(millisecondsSince1970: created), updatedAt: Timestamp(millisecondsSince1970: updated))
        return DreamRecord(dream: dream, orderKey: key)
    }

    static func corrupt(_ table: String, _ detail: String = "a row holds a value Lucid never writes") -> PGError {
        PGError(message: "\(table): \(detail)", sqlState: "XX001")
    }
}

/// PostgreSQL array literals in text form, `{"a","b",NULL}`: every element quoted, with the
/// quote and the backslash escaped, so any text goes in as itself; nil is NULL.
enum PGArray {
    static func literal(_ elements: [String?]) -> String {
        // Byte by byte: `"` and `\` are single bytes in UTF-8 and never part of another
        // character, so escaping them there is escaping them in the text. (Appending scalar
        // by scalar to a String took half a second for the 10,000 descriptions of an import.)
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(elements.reduce(2) { $0 + ($1?.utf8.count ?? 4) + 3 })
        for (position, element) in elements.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            guard let element else {
                bytes += "NULL".utf8
                continue
            }
            bytes.append(UInt8(ascii: "\""))
            for byte in element.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
