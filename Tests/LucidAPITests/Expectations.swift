import Foundation
import LucidHTTPTesting
import Testing

/// Checks that `response` is an RFC 9457 problem of `status` with type `/problems/<type>`,
/// carrying the fields every problem has, and a `requestId` that matches `X-Request-Id`.
func expectProblem(
    _ response: TestResponse, _ status: Int, _ type: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
    #expect(response.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
    let json = response.json
    #expect(json["type"].string == "/problems/\(type)", "\(response.text)", sourceLocation: sourceLocation)
    #expect(json["status"].int == status, sourceLocation: sourceLocation)
    #expect(json["title"].string?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(json["detail"].string?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(json["requestId"].string?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(response.header("X-Request-Id") != nil, sourceLocation: sourceLocation)
    #expect(json["requestId"].string == response.header("X-Request-Id"), sourceLocation: sourceLocation)
}

/// Checks a 422 whose `errors` point at exactly `expected` (each bad field, nothing else).
func expectInvalid(
    _ response: TestResponse, _ expected: Set<String>, sourceLocation: SourceLocation = #_sourceLocation
) {
    expectProblem(response, 422, "validation-failed", sourceLocation: sourceLocation)
    #expect(pointers(response) == expected, "\(response.text)", sourceLocation: sourceLocation)
    for error in response.json["errors"].array ?? [] {
        #expect(error["detail"].string?.isEmpty == false, sourceLocation: sourceLocation)
    }
}

/// The `pointer`s of a problem's `errors`.
func pointers(_ response: TestResponse) -> Set<String> {
    Set((response.json["errors"].array ?? []).compactMap { $0["pointer"].string })
}

/// The `parameter`s of a problem's `errors`.
func parameters(_ response: TestResponse) -> Set<String> {
    Set((response.json["errors"].array ?? []).compactMap { $0["parameter"].string })
}

/// Checks a 401 and its `WWW-Authenticate` challenge: plain when no token was sent,
/// `error="invalid_token"` when one was.
func expectUnauthorized(
    _ response: TestResponse, tokenSent: Bool, sourceLocation: SourceLocation = #_sourceLocation
) {
    expectProblem(response, 401, "unauthorized", sourceLocation: sourceLocation)
    let expected = tokenSent ? "Bearer realm=\"lucid\", error=\"invalid_token\"" : "Bearer realm=\"lucid\""
    #expect(response.header("WWW-Authenticate") == expected, sourceLocation: sourceLocation)
}

/// Checks a JSON 200-family answer with the journal's `ETag`.
func expectJSON(
    _ response: TestResponse, _ status: Int = 200, version: Int?, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
    #expect(response.header("Content-Type") == "application/json; charset=utf-8", sourceLocation: sourceLocation)
    if let version {
        #expect(withoutJournal(response.header("ETag")) == "\"\(version)\"", sourceLocation: sourceLocation)
    }
}

/// An `ETag` with the journal it names taken off (`"5-3f9a0c1d"` is `"5"`, `W/"5-markdown-3f9a0c1d"`
/// is `W/"5-markdown"`): the tag the same answer has in every journal.
func withoutJournal(_ tag: String?) -> String? {
    tag?.replacingOccurrences(of: #"-[0-9a-f]{8}"$"#, with: "\"", options: .regularExpression)
}

/// RFC 3339 in UTC with milliseconds, as the API writes instants.
func isTimestamp(_ text: String?) -> Bool {
    guard let text else { return false }
    return text.wholeMatch(of: try! Regex(#"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z"#)) != nil
}

/// `milliseconds` since 1970 as the API writes instants, computed independently of the server.
func rfc3339(_ milliseconds: Int64) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
    return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
}

/// Today's date in UTC, `YYYY-MM-DD`.
func todayUTC() -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: Date())
}

/// A model without its version: what two versions with equal models share.
func content(_ model: JSON) -> JSON {
    JSON(["favoriteCreature": model["favoriteCreature"].value as Any, "dreams": model["dreams"].value as Any])
}

/// The empty model every journal starts with, without its version.
var emptyContent: JSON { JSON(["favoriteCreature": ["kind": "unicorn", "color": "yellow"], "dreams": [Any]()]) }

/// Applies a diff to `model` the way openapi.yaml tells clients to: remove the deleted and
/// moved dreams, replace the updated ones, insert the inserted and moved ones from the
/// lowest index up, then set the favorite creature. `nil` if the diff does not fit the model.
func applying(_ diff: JSON, to model: JSON) -> JSON? {
    guard var dreams = model["dreams"].value as? [[String: Any]],
          let inserted = diff["inserted"].array, let updated = diff["updated"].array,
          let deleted = diff["deleted"].array, let moved = diff["moved"].array
    else { return nil }
    let deletedIDs = Set(deleted.compactMap(\.string))
    let movedIDs = Set(moved.compactMap { $0["id"].string })
    guard deletedIDs.count == deleted.count, movedIDs.count == moved.count else { return nil }
    var movedDreams: [String: [String: Any]] = [:]
    dreams.removeAll { dream in
        let id = dream["id"] as? String ?? ""
        if movedIDs.contains(id) { movedDreams[id] = dream }
        return deletedIDs.contains(id) || movedIDs.contains(id)
    }
    guard movedDreams.count == movedIDs.count else { return nil }
    for dream in updated {
        guard let id = dream["id"].string, let value = dream.value as? [String: Any] else { return nil }
        if let index = dreams.firstIndex(where: { $0["id"] as? String == id }) {
            dreams[index] = value
        } else if movedDreams[id] != nil {
            movedDreams[id] = value
        } else {
            return nil
        }
    }
    var insertions: [(index: Int, dream: [String: Any])] = []
    for item in inserted {
        guard let index = item["index"].int, let dream = item["dream"].value as? [String: Any] else { return nil }
        insertions.append((index, dream))
    }
    for item in moved {
        guard let index = item["toIndex"].int, let id = item["id"].string, let dream = movedDreams[id] else { return nil }
        insertions.append((index, dream))
    }
    for insertion in insertions.sorted(by: { $0.index < $1.index }) {
        guard (0...dreams.count).contains(insertion.index) else { return nil }
        dreams.insert(insertion.dream, at: insertion.index)
    }
    let favorite = diff["favoriteCreature"].exists ? diff["favoriteCreature"].value : model["favoriteCreature"].value
    return JSON(["favoriteCreature": favorite as Any, "dreams": dreams])
}

/// Checks that applying `diff` to `old` gives exactly `new` (versions aside).
func expectDiff(
    _ diff: JSON, takes old: JSON, to new: JSON, sourceLocation: SourceLocation = #_sourceLocation
) {
    let result = applying(diff, to: old)
    #expect(result != nil, "the diff does not fit the old model: \(diff)", sourceLocation: sourceLocation)
    if let result {
        #expect(result == content(new), "diff \(diff)", sourceLocation: sourceLocation)
    }
}

/// A diff that changes nothing.
var emptyDiff: JSON { JSON(["inserted": [Any](), "updated": [Any](), "deleted": [Any](), "moved": [Any]()]) }
