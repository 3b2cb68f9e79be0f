import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A Swift app's view of Lucid: drives a live server through the client that
// swift-openapi-generator made from the repository's openapi.yaml, and nothing else.
// Usage: LucidScenario BASE_URL. Exits non-zero on the first answer that is not the one
// the scenario expects, or that the generated client cannot decode into its typed model.

/// Signs every request in with a bearer token, as an app does once it has one.
struct BearerToken: ClientMiddleware {
    let token: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

/// Remembers the media type each operation's body went out as.
final class SentTypes: ClientMiddleware, @unchecked Sendable {
    private let lock = NSLock()
    private var types: [String: String] = [:]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        lock.withLock { types[operationID] = request.headerFields[.contentType] }
        return try await next(request, body, baseURL)
    }

    subscript(operationID: String) -> String? { lock.withLock { types[operationID] } }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
}

func check(_ condition: Bool, _ what: @autoclosure () -> String) throws {
    if !condition { throw Failure(description: what()) }
}

/// Checks a problem's type and status; answers it.
@discardableResult
func expect(
    _ problem: Components.Schemas.Problem, _ type: Components.Schemas.Problem._TypePayload, _ status: Int
) throws -> Components.Schemas.Problem {
    try check(problem._type == type && problem.status == status && !problem.requestId.isEmpty, "expected \(type) \(status), got \(problem)")
    return problem
}

/// The client every app needs: Lucid writes times with milliseconds.
func client(_ serverURL: URL, _ middlewares: [any ClientMiddleware]) -> Client {
    Client(
        serverURL: serverURL, configuration: Configuration(dateTranscoder: .iso8601WithFractionalSeconds),
        transport: URLSessionTransport(), middlewares: middlewares)
}

func run(_ serverURL: URL) async throws {
    let sent = SentTypes()
    let anonymous = client(serverURL, [sent])
    let username = "swift-" + UUID().uuidString.prefix(12).lowercased()

    // Register, and a second registration of the name: 409 username-taken.
    let registration = try await anonymous.createUser(
        body: .json(.init(username: username, password: "correct horse battery"))).created.body.json
    try check(registration.user.username == username, "registered as \(registration.user.username)")
    try expect(
        try await anonymous.createUser(body: .json(.init(username: username, password: "another horse battery")))
            .conflict.body.applicationProblemJson,
        .usernameTaken, 409)
    // Without a token: 401.
    try expect(try await anonymous.getMe().unauthorized.body.applicationProblemJson, .unauthorized, 401)

    let lucid = client(serverURL, [sent, BearerToken(token: registration.token)])
    try check(try await lucid.getMe().ok.body.json.username == username, "getMe")

    // Add a dream, and list it.
    let added = try await lucid.createDream(body: .json(.init(
        description: "Flying over a violet sea", creature: .unicorn(.init(kind: .unicorn, color: .pink)),
        effects: [.magic]))).created
    let dream = try added.body.json
    // The version, then whose journal it is.
    try check(added.headers.eTag?.hasPrefix("\"1-") == true, "ETag \(added.headers.eTag ?? "none")")
    let page = try await lucid.listDreams(query: .init(limit: 20)).ok.body.json
    try check(page.items.map(\.id) == [dream.id] && page.version == 1, "list: \(page)")

    // A merge patch, sent as application/merge-patch+json, at the version it read: the
    // runtime percent-encodes the entity tag, which Lucid reads as the plain one.
    let patched = try await lucid.updateDream(
        path: .init(id: dream.id), headers: .init(ifMatch: "\"1\""),
        body: .applicationMergePatchJson(.init(description: "Flying over a violet sea, slowly"))).ok.body.json
    try check(patched.description == "Flying over a violet sea, slowly", "patched: \(patched)")
    let patchType = sent["updateDream"]?.split(separator: ";").first
    try check(patchType == "application/merge-patch+json", "PATCH went as \(sent["updateDream"] ?? "nothing")")

    // Undo takes the patch back, redo puts it again.
    let undone = try await lucid.undo().ok.body.json
    try check(undone.version == 3 && undone.diff.updated.map(\.description) == ["Flying over a violet sea"], "undo: \(undone)")
    let redone = try await lucid.redo().ok.body.json
    try check(redone.version == 4 && redone.diff.updated.map(\.description) == ["Flying over a violet sea, slowly"], "redo: \(redone)")

    // History, a version read back whole, and the changes since a version.
    let history = try await lucid.getHistory().ok.body.json
    let kinds = history.items.map { item -> String in
        switch item {
        case .change(let change): "change \(change.version)"
        case .undo(let undo): "undo \(undo.version)"
        case .redo(let redo): "redo \(redo.version)"
        }
    }
    try check(kinds == ["redo 4", "undo 3", "change 2", "change 1"], "history: \(kinds)")
    let first = try await lucid.getVersion(path: .init(version: 1)).ok.body.json
    try check(first.version == 1 && first.dreams.map(\.description) == ["Flying over a violet sea"], "version 1: \(first)")
    let changes = try await lucid.getChanges(query: .init(since: 1)).ok.body.json
    try check(changes.version == 4 && changes.diff.updated.count == 1, "changes since 1: \(changes)")
    // The client's copy is current: 304, with `If-None-Match` percent-encoded by the runtime.
    _ = try await lucid.getVersion(path: .init(version: 4), headers: .init(ifNoneMatch: "\"4\"")).notModified

    // A batch at the current version is one new version; at an old one it is 412.
    let batch = Components.Schemas.ActionBatch(actions: [
        .addDream(.init(_type: .addDream, dream: .init(
            description: "A shark that sings", creature: .shark(.init(kind: .shark))))),
        .deleteDream(.init(_type: .deleteDream, id: dream.id)),
    ])
    let applied = try await lucid.applyActions(headers: .init(ifMatch: "\"4\""), body: .json(batch)).ok.body.json
    try check(applied.version == 5 && applied.diff.deleted == [dream.id], "batch: \(applied)")
    try expect(
        try await lucid.applyActions(headers: .init(ifMatch: "\"4\""), body: .json(batch))
            .preconditionFailed.body.applicationProblemJson,
        .preconditionFailed, 412)

    // Search: the words found marked in the snippet; a bad filter is 400 naming it.
    let found = try await lucid.searchDreams(query: .init(q: "SING", limit: 10)).ok.body.json
    try check(found.version == 5 && found.total == 1 && found.nextCursor == nil, "search: \(found)")
    let snippet = found.items.first?.snippet ?? []
    try check(snippet.map(\.text) == ["A shark that ", "sings"] && snippet.map(\.match) == [nil, true], "snippet: \(snippet)")
    try expect(
        try await lucid.searchDreams(query: .init(monthDay: "02-30")).badRequest.body.applicationProblemJson, .badRequest, 400)

    // The whole journal to take away: Lucid's JSON with every version, Day One's JSON, Markdown.
    guard case .LucidExport(let exported) = try await lucid.exportJournal(query: .init(history: ._true)).ok.body.json else {
        throw Failure(description: "export: not Lucid's JSON")
    }
    let versions = (exported.history ?? []).map { item in
        switch item {
        case .change(let change): change.version
        case .undo(let undo): undo.version
        case .redo(let redo): redo.version
        }
    }
    try check(
        exported.version == 5 && exported.dreams.map(\.description) == ["A shark that sings"] && versions == [1, 2, 3, 4, 5],
        "export: \(exported)")
    guard case .DayOneExport(let dayOne) = try await lucid.exportJournal(query: .init(format: .dayone)).ok.body.json else {
        throw Failure(description: "export: not Day One's JSON")
    }
    try check(dayOne.entries.map(\.tags) == [["Creature: Shark"]] && dayOne.entries.map(\.starred) == [false], "Day One: \(dayOne)")
    let markdown = try await lucid.exportJournal(
        query: .init(format: .markdown), headers: .init(accept: [.init(contentType: .textMarkdown)])
    ).ok.body.textMarkdown
    let document = try await String(collecting: markdown, upTo: 1 << 20)
    try check(document.hasPrefix("# Dream journal of ") && document.contains("\nA shark that sings\n"), "Markdown: \(document)")

    // A dream that is not there: 404. A dream without a description: 422 naming the field.
    try expect(
        try await lucid.getDream(path: .init(id: UUID().uuidString.lowercased())).notFound.body.applicationProblemJson,
        .notFound, 404)
    let invalid = try expect(
        try await lucid.createDream(body: .json(.init(description: " ", creature: .dragon(.init(kind: .dragon)))))
            .unprocessableContent.body.applicationProblemJson,
        .validationFailed, 422)
    let pointers = (invalid.errors ?? []).map { error -> String in
        switch error {
        case .FieldError(let field): field.pointer
        case .ParameterError(let parameter): "parameter \(parameter.parameter)"
        }
    }
    try check(pointers == ["/description"], "422 names \(pointers)")

    // A Day One file in as one version, seen in history; one undo takes it back.
    let entry = Components.Schemas.DayOneEntry(
        uuid: "5C1A2E7F0B9D4C36A8E1F2D3C4B5A697", creationDate: Date(timeIntervalSince1970: 1_677_910_360),
        text: "# Over the harbour", starred: true, timeZone: "Europe/Paris")
    let imported = try await lucid.importJournal(body: .json(.DayOneImport(.init(entries: [entry])))).ok.body.json
    try check(imported.version == 6 && imported.added == 1 && imported.skipped == 0, "import: \(imported)")
    guard case .change(let change) = try await lucid.getHistory(query: .init(limit: 1)).ok.body.json.items.first,
          case .importDreams(let recorded) = change.actions.first
    else { throw Failure(description: "the import is not the newest change in history") }
    try check(recorded.dreams.map(\.dreamtOn) == ["2023-03-04"] && recorded.dreams.allSatisfy(\.lucid), "recorded: \(recorded)")
    let undoneImport = try await lucid.undo().ok.body.json
    try check(undoneImport.version == 7 && undoneImport.diff.deleted == ["5c1a2e7f-0b9d-4c36-a8e1-f2d3c4b5a697"], "undo: \(undoneImport)")
    print("swift client: every answer typed")
}

guard CommandLine.arguments.count == 2, let serverURL = URL(string: CommandLine.arguments[1]) else {
    print("usage: LucidScenario BASE_URL")
    exit(64)
}
do {
    try await run(serverURL)
} catch {
    print("swift client: \(error)")
    exit(1)
}
