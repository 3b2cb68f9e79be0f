import Foundation
import LucidHTTP
import LucidJSON
import LucidModel
import LucidStore
import LucidWire

extension API {
    /// Runs a store call, turning its error into a problem; `locate` places a refused action in the body.
    func journal<T>(
        locate: (Int) -> String = { _ in "" }, _ body: () throws(JournalError) -> T
    ) throws(Problem) -> T {
        do throws(JournalError) { return try body() } catch { throw Problem.journal(error, locate: locate) }
    }

    /// The version a mutation must find the journal at, from If-Match. With several tags,
    /// the current version if it is among them (the store checks it again under its lock),
    /// or else the nearest one ahead of it.
    /// Tags that name no version at all (weak, or not written as we write versions) can
    /// never match, so they are 412 at once.
    func expectedVersion(_ call: SignedInCall, of user: User) throws(Problem) -> Int? {
        guard let versions = try call.matchedVersions() else { return nil }
        if versions.count == 1 { return versions[0] }
        let current = try journal { () throws(JournalError) in try journals.head(of: user.id).version }
        guard let first = versions.first else {
            throw Problem(.preconditionFailed,
                          "If-Match names no version of this journal: a weak tag never matches, and versions are written \"12\".",
                          headers: [("ETag", "\"\(current)\"")])
        }
        // Not at one of them now: the next it may reach, so that the refusal says whether the
        // request can ever succeed (a version ahead) or never will (all behind).
        return versions.contains(current) ? current : versions.filter { $0 > current }.min() ?? first
    }

    /// Applies `actions` as one change of `user`'s journal, with the request's If-Match, and
    /// answers with `render` of the commit (kept for retries if the request has a key).
    func change(
        _ call: SignedInCall, by user: User, _ actions: [Action], at now: Timestamp? = nil, locate: (Int) -> String = { _ in "" },
        render: @escaping (Commit) -> Response
    ) throws(Problem) -> Response {
        let expected = try expectedVersion(call, of: user)
        let now = now ?? environment.now()
        return try keyed(call, { (receipt) throws(JournalError) in
            try journals.apply(actions, to: user.id, at: now, expecting: expected, keeping: receipt)
        }, locate: locate, render: render)
    }

    func model(_ call: SignedInCall, _ head: () throws(Problem) -> Snapshot) throws(Problem) -> JournalRead {
        let head = try head()
        if call.alreadyHas(version: head.version) { return .ready(Reply.notModified(version: head.version)) }
        return .rendered(call.answer(.model, at: head.version)) { .ofVersion(Reply.json(head, version: head.version)) }
    }

    /// A page of dreams. The cursor pins the version of the first page, so paging through
    /// a journal that changes meanwhile neither skips nor repeats a dream.
    func listDreams(_ call: SignedInCall, _ head: () throws(Problem) -> Snapshot) throws(Problem) -> JournalRead {
        let user = call.user
        let limit = try call.integerParameter("limit", in: 1...100) ?? 50
        let head = try head()
        guard let cursor = call.request.queryValue("cursor") else {
            if call.alreadyHas(version: head.version) { return .ready(Reply.notModified(version: head.version)) }
            return .rendered(call.answer(.dreams(limit: limit, start: 0), at: head.version)) {
                .ofVersion(Self.page(of: head, from: 0, limit: limit))
            }
        }
        let parts = cursor.split(separator: ".")
        guard parts.count == 2, let version = Int(parts[0]), let start = Int(parts[1]),
              (0...head.version).contains(version), start >= 0
        else { throw Problem.badParameter("cursor", "is not a cursor this journal gave out") }
        return .rendered(call.answer(.dreams(limit: limit, start: start), at: version)) { [self] () throws(Problem) in
            let snapshot = try journal { () throws(JournalError) in try journals.model(of: user.id, at: version) }
            return .ofVersion(Self.page(of: snapshot, from: start, limit: limit))
        }
    }

    /// The page of at most `limit` of `snapshot`'s dreams from the `start`th on.
    private static func page(of snapshot: Snapshot, from start: Int, limit: Int) -> Response {
        let offset = min(start, snapshot.model.dreams.count)
        let end = min(offset + limit, snapshot.model.dreams.count)
        return Reply.object(version: snapshot.version) { writer in
            writer.key("version"); writer.int(snapshot.version)
            writer.key("items"); writer.array(snapshot.model.dreams[offset..<end])
            writer.key("nextCursor")
            if end < snapshot.model.dreams.count { writer.string("\(snapshot.version).\(end)") } else { writer.null() }
        }
    }

    func addDream(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        var reader = FieldReader()
        let input = reader.newDream(try call.jsonBody(), at: "")
        guard let input, reader.errors.isEmpty else { throw reader.problem }
        let now = environment.now()
        let dream = input.dream(createdAt: now, newID: { environment.newDreamID(now) })
        let location = "/v1/dreams/\(dream.id.uuidString.lowercased())"
        // The reader has already checked the dream against the reducer's rules.
        return try change(call, by: user, [.addDream(dream)]) { commit in
            Reply.json(dream, status: 201, version: commit.version, headers: [("Location", location)])
        }
    }

    func dream(_ call: SignedInCall, _ head: () throws(Problem) -> Snapshot) throws(Problem) -> JournalRead {
        let id = try call.dreamID()
        let head = try head()
        guard let dream = head.model.dream(id) else { throw Problem.refused(.dreamNotFound(id), at: "") }
        if call.alreadyHas(version: head.version) { return .ready(Reply.notModified(version: head.version)) }
        return .rendered(call.answer(.dream(id), at: head.version)) { .ofVersion(Reply.json(dream, version: head.version)) }
    }

    func updateDream(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let id = try call.dreamID()
        let body = try call.jsonBody(accepting: ["application/json", "application/merge-patch+json"])
        var reader = FieldReader()
        let changes = reader.changes(body, at: "")
        guard let changes, reader.errors.isEmpty else { throw reader.problem }
        return try change(call, by: user, [.updateDream(id: id, changes: changes, at: environment.now())]) { commit in
            // An update that went through leaves the dream in the model.
            commit.model.dream(id).map { Reply.json($0, version: commit.version) } ?? Reply.noContent(version: commit.version)
        }
    }

    /// Inserts a copy of the dream right after it. The body is optional: `{"newId": …}` names
    /// the copy's id (a client that works offline makes it); without one the server does.
    func duplicateDream(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let id = try call.dreamID()
        var newID: UUID?
        if !call.request.body.isEmpty || call.request.header("content-type") != nil {
            var reader = FieldReader()
            let members = reader.object(try call.jsonBody(), at: "", allowed: ["newId"])
            newID = members.flatMap { reader.optional($0, "newId", at: "") { $0.uuid($1, at: $2) } }
            guard members != nil, reader.errors.isEmpty else { throw reader.problem }
        }
        let now = environment.now()
        let copyID = newID ?? environment.newDreamID(now)
        let location = "/v1/dreams/\(copyID.uuidString.lowercased())"
        return try change(call, by: user, [.duplicateDream(id: id, newID: copyID, at: now)]) { commit in
            // A duplicate that went through leaves the copy in the model.
            commit.model.dream(copyID).map {
                Reply.json($0, status: 201, version: commit.version, headers: [("Location", location)])
            } ?? Reply.noContent(version: commit.version)
        }
    }

    func deleteDream(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        return try change(call, by: user, [.deleteDream(id: try call.dreamID())]) { Reply.noContent(version: $0.version) }
    }

    func favoriteCreature(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        let head = try journal { () throws(JournalError) in try journals.head(of: user.id) }
        if call.alreadyHas(version: head.version) { return Reply.notModified(version: head.version) }
        return Reply.object(version: head.version) { $0.key("creature"); $0.value(head.model.favoriteCreature) }
    }

    func setFavoriteCreature(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        var reader = FieldReader()
        let members = reader.object(try call.jsonBody(), at: "", allowed: ["creature"]) ?? [:]
        let creature = reader.required(members, "creature", at: "") { $0.creature($1, at: $2) }
        guard let creature, reader.errors.isEmpty else { throw reader.problem }
        return try change(call, by: user, [.setFavoriteCreature(creature)]) { commit in
            Reply.object(version: commit.version) { $0.key("creature"); $0.value(commit.model.favoriteCreature) }
        }
    }

    /// The most actions one batch may hold.
    static let batchLimit = 1000

    /// The actions of the list `value` at `pointer` (`/actions` of a body, or of a change of
    /// a batch): 1 to ``batchLimit`` of them, each read and checked; faults go to `reader`.
    static func actions(_ value: JSONValue?, at pointer: String, _ reader: inout FieldReader) -> [ActionRequest] {
        guard let value else {
            reader.fail(pointer, "is required")
            return []
        }
        guard case .array(let items) = value, (1...batchLimit).contains(items.count) else {
            reader.fail(pointer, "must be an array of 1 to \(batchLimit) actions")
            return []
        }
        return items.enumerated().compactMap { index, item in reader.action(item, at: "\(pointer)/\(index)") }
    }

    func applyActions(_ call: SignedInCall) throws(Problem) -> Response {
        let user = call.user
        var reader = FieldReader()
        let members = reader.object(try call.jsonBody(), at: "", allowed: ["actions"])
        let requests = members.map { Self.actions($0["actions"], at: "/actions", &reader) } ?? []
        guard reader.errors.isEmpty else { throw reader.problem }

        let now = environment.now()
        let actions = requests.map { $0.stamped(at: now, newID: { environment.newDreamID(now) }) }
        return try change(call, by: user, actions, at: now, locate: { "/actions/\($0)" }, render: Self.versionedDiff)
    }

    func undo(_ call: SignedInCall) throws(Problem) -> Response {
        try step(call) { (user, now, expected, receipt) throws(JournalError) in
            try journals.undo(of: user, at: now, expecting: expected, keeping: receipt)
        }
    }

    func redo(_ call: SignedInCall) throws(Problem) -> Response {
        try step(call) { (user, now, expected, receipt) throws(JournalError) in
            try journals.redo(of: user, at: now, expecting: expected, keeping: receipt)
        }
    }

    /// An undo or redo: `{version, diff}` of the version it appends.
    private func step(
        _ call: SignedInCall, _ operation: (UUID, Timestamp, Int?, Receipt?) throws(JournalError) -> Commit
    ) throws(Problem) -> Response {
        let user = call.user
        let expected = try expectedVersion(call, of: user)
        let now = environment.now()
        return try keyed(call, { (receipt) throws(JournalError) in try operation(user.id, now, expected, receipt) },
                         render: Self.versionedDiff)
    }

    /// The answer of a batch, an undo or a redo: the version and the diff that reached it.
    static func versionedDiff(_ commit: Commit) -> Response {
        Reply.json(VersionedDiff(version: commit.version, diff: commit.diff), version: commit.version)
    }

    /// A page of history: at most `limit` versions, and no more than
    /// `StoreLimits.historyPageBytes` of stored actions (at least one version), so a page
    /// of big changes stays small; `nextCursor` leads on either way.
    func history(_ call: SignedInCall, _ head: () throws(Problem) -> Snapshot) throws(Problem) -> JournalRead {
        let user = call.user
        let limit = try call.integerParameter("limit", in: 1...100) ?? 50
        let before = try call.integerParameter("before", in: 1...Int.max)
        let version = try head().version
        if call.alreadyHas(version: version) { return .ready(Reply.notModified(version: version)) }
        return .rendered(call.answer(.history(before: before, limit: limit), at: version)) { [self] () throws(Problem) in
            let page = try journal { () throws(JournalError) in try journals.history(of: user.id, before: before, limit: limit) }
            let response = Reply.object(version: version) { writer in
                writer.key("canUndo"); writer.bool(page.canUndo)
                writer.key("canRedo"); writer.bool(page.canRedo)
                writer.key("items"); writer.array(page.items)
                writer.key("nextCursor")
                if let before = page.nextBefore { writer.int(before) } else { writer.null() }
            }
            // The store reads the page at the head it finds, which a write may have moved on
            // since `version`: the page is of `version` only if the head is still there.
            return (try? journals.head(of: user.id).version) == version ? .ofVersion(response) : .moved(response)
        }
    }

    func version(_ call: SignedInCall, _ head: () throws(Problem) -> Snapshot) throws(Problem) -> JournalRead {
        let user = call.user
        guard let text = call.parameters["version"], let version = Int(text), version >= 0 else {
            throw Problem(.notFound, "The journal has no version \(call.parameters["version"] ?? "").")
        }
        let head = try head()
        try journal { () throws(JournalError) in try head.requireVersion(version) }
        if call.alreadyHas(version: version) { return .ready(Self.keptForGood(Reply.notModified(version: version))) }
        return .rendered(call.answer(.version, at: version)) { [self] () throws(Problem) in
            let snapshot = try journal { () throws(JournalError) in try journals.model(of: user.id, at: version) }
            return .ofVersion(Self.keptForGood(Reply.json(snapshot, version: version)))
        }
    }

    /// `response` with what a version's answer tells caches: a version, once written, is what
    /// it is for good, so a private cache need never ask again.
    private static func keptForGood(_ response: Response) -> Response {
        var response = response
        response.headers.append(("Cache-Control", Self.versionCaching))
        return response
    }

    /// What `GET /v1/versions/{version}` tells caches: a year, for its user alone.
    static let versionCaching = "private, max-age=31536000, immutable"
}
