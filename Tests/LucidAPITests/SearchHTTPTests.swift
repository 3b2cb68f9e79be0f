import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

@Suite("Searching dreams over HTTP")
struct SearchHTTPTests {
    /// `/v1/dreams/search?` with each pair percent-encoded, in order (names may repeat).
    static func path(_ parameters: [(String, String)]) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        return "/v1/dreams/search?" + parameters.map { "\(encoded($0.0))=\(encoded($0.1))" }.joined(separator: "&")
    }

    /// The descriptions of the dreams a search answers, in order.
    static func found(_ client: TestClient, _ token: String, _ parameters: [(String, String)]) throws -> [String] {
        let response = try client.get(path(parameters), token: token)
        #expect(response.status == 200, "\(parameters): \(response.text)")
        return response.json["items"].array?.compactMap { $0["dream"]["description"].string } ?? []
    }

    static func dream(_ description: String, _ creature: [String: String] = ["kind": "dragon"], effects: [String] = [],
                      on day: String = "2026-11-01", lucid: Bool = false, tags: [String] = []) -> [String: Any] {
        ["description": description, "creature": creature, "effects": effects, "dreamtOn": day, "lucid": lucid, "tags": tags]
    }

    @Test func wordsInAnyOrderWithoutCaseOrDiacriticsTheLastAPrefixBestFirst() throws {
        try withServer { client in
            let token = try client.register("searcher")
            for dream in [
                Self.dream("Violet sea, a UNICORN", ["kind": "unicorn", "color": "pink"]),
                Self.dream("A shark in the tide; the tide was violet, violet, violet"),
                Self.dream("Café by the sea", tags: ["Violet"]),
                Self.dream("The unicorn stayed home"),
            ] { _ = try client.addDream(token, dream) }

            #expect(try Self.found(client, token, [("q", "unicorn violet")]) == ["Violet sea, a UNICORN"])
            #expect(try Self.found(client, token, [("q", "VIOLET Unicorn")]) == ["Violet sea, a UNICORN"])
            #expect(try Self.found(client, token, [("q", "cafe")]) == ["Café by the sea"])
            #expect(try Self.found(client, token, [("q", "CAFÉ")]) == ["Café by the sea"])
            // Equal matches (a prefix's hit in four words each) stay in the user's order.
            #expect(try Self.found(client, token, [("q", "unic")]) == ["Violet sea, a UNICORN", "The unicorn stayed home"])
            #expect(try Self.found(client, token, [("q", "vio unicorn")]) == [])
            // A tag counts for more than any number of hits in a description; a shorter
            // description's hit for more than a longer one's.
            #expect(try Self.found(client, token, [("q", "violet")]) == [
                "Café by the sea", "A shark in the tide; the tide was violet, violet, violet", "Violet sea, a UNICORN",
            ])
            // No words: every dream, in the user's order.
            #expect(try Self.found(client, token, [("q", " ?! ")]).count == 4)
            #expect(try Self.found(client, token, []).count == 4)

            let answer = try client.get(Self.path([("q", "unicorn viol")]), token: token)
            expectJSON(answer, version: 4)
            #expect(answer.json.keys == ["version", "total", "items", "nextCursor"] && answer.json["nextCursor"].isNull)
            #expect(answer.json["version"].int == 4 && answer.json["total"].int == 1)
            #expect(answer.json["items"][0]["snippet"] == JSON([
                ["text": "Violet", "match": true], ["text": " sea, a "], ["text": "UNICORN", "match": true],
            ]))
            #expect(answer.json["items"][0]["dream"]["creature"] == JSON(["kind": "unicorn", "color": "pink"]))
            // Only the tags matched: the description's beginning, nothing marked.
            let tagged = try client.get(Self.path([("q", "violet"), ("limit", "1")]), token: token)
            #expect(tagged.json["items"][0]["snippet"] == JSON([["text": "Café by the sea"]]))
        }
    }

    @Test func everyFilterAloneAndTogether() throws {
        try withServer { client in
            let token = try client.register("filterer")
            for dream in [
                Self.dream("one", ["kind": "unicorn", "color": "white"], effects: ["magic", "rain"], on: "2024-02-29", tags: ["Water", "Flying"]),
                Self.dream("two", ["kind": "shark"], effects: ["magic"], on: "2025-02-28", lucid: true, tags: ["water"]),
                Self.dream("three", ["kind": "unicorn", "color": "pink"], on: "2025-11-23", lucid: true),
                Self.dream("four", ["kind": "crusty"], effects: ["rain"], on: "2026-11-23"),
            ] { _ = try client.addDream(token, dream) }
            for (parameters, expected) in [
                ([("creature", "unicorn")], ["one", "three"]),
                ([("creature", "shark")], ["two"]),
                ([("effect", "magic")], ["one", "two"]),
                ([("effect", "magic"), ("effect", "rain")], ["one"]),
                ([("tag", "WATER")], ["one", "two"]),
                ([("tag", " water "), ("tag", "flying")], ["one"]),
                ([("lucid", "true")], ["two", "three"]),
                ([("lucid", "false")], ["one", "four"]),
                ([("from", "2025-02-28")], ["two", "three", "four"]),
                ([("to", "2025-02-28")], ["one", "two"]),
                ([("from", "2025-01-01"), ("to", "2025-12-31")], ["two", "three"]),
                ([("monthDay", "11-23")], ["three", "four"]),
                ([("monthDay", "02-29")], ["one"]),
                ([("monthDay", "02-28")], ["two"]),
                ([("creature", "unicorn"), ("lucid", "true"), ("monthDay", "11-23")], ["three"]),
                ([("q", "t"), ("lucid", "true")], ["two", "three"]),
                ([("q", "four"), ("effect", "magic")], []),
            ] as [([(String, String)], [String])] {
                #expect(try Self.found(client, token, parameters) == expected, "\(parameters)")
            }
        }
    }

    @Test func pagesFollowTheCursorAtTheVersionOfTheFirst() throws {
        try withServer { client in
            let token = try client.register("pager")
            for number in 1...5 { _ = try client.addDream(token, "moth \(number)") }
            _ = try client.addDream(token, "a moon")
            let first = try client.get(Self.path([("q", "moth"), ("limit", "2")]), token: token)
            #expect(first.json["total"].int == 5 && first.json["items"].count == 2)
            let cursor = try #require(first.json["nextCursor"].string)
            // A write between pages changes nothing of the pages that follow.
            let moved = try client.model(token)["dreams"][4]["id"].string ?? ""
            #expect(try client.delete("/v1/dreams/\(moved)", token: token).status == 204)
            let second = try client.get(Self.path([("q", "moth"), ("limit", "2"), ("cursor", cursor)]), token: token)
            expectJSON(second, version: 6)
            #expect(second.json["total"].int == 5)
            let next = try #require(second.json["nextCursor"].string)
            let third = try client.get(Self.path([("q", "moth"), ("limit", "2"), ("cursor", next)]), token: token)
            #expect(third.json["nextCursor"].isNull && third.json["items"].count == 1)
            let pages = [first, second, third].flatMap { $0.json["items"].array ?? [] }.compactMap { $0["dream"]["description"].string }
            #expect(pages == (1...5).map { "moth \($0)" })
            // A new search sees the delete.
            #expect(try client.get(Self.path([("q", "moth")]), token: token).json["total"].int == 4)
            // The cursor of a search without words pages through every dream the same way.
            let all = try client.get(Self.path([("limit", "4")]), token: token)
            let rest = try client.get(Self.path([("limit", "4"), ("cursor", all.json["nextCursor"].string ?? "")]), token: token)
            #expect(all.json["total"].int == 5 && rest.json["items"].count == 1 && rest.json["nextCursor"].isNull)
        }
    }

    @Test func aCursorFarPastTheEndAnswersAnEmptyPage() throws {
        try withServer { client in
            let token = try client.register("far-pager")
            _ = try client.addDream(token, "a quiet night")
            for parameters in [[("cursor", "1.\(Int.max)")], [("q", "night"), ("limit", "100"), ("cursor", "1.\(Int.max - 1)")]] {
                let far = try client.get(Self.path(parameters), token: token)
                #expect(far.status == 200, "\(parameters): \(far.text)")
                #expect(far.json["total"].int == 1 && far.json["items"].count == 0 && far.json["nextCursor"].isNull)
            }
        }
    }

    @Test func aSearchSeesAWriteAnUndoAndARedoAtOnce() throws {
        try withServer { client in
            let token = try client.register("immediate")
            let added = try client.addDream(token, "a lantern on the stairs")
            let id = try #require(added["id"].string)
            #expect(try Self.found(client, token, [("q", "lantern")]) == ["a lantern on the stairs"])
            #expect(try client.patch("/v1/dreams/\(id)", json: ["description": "a candle on the stairs"], token: token).status == 200)
            #expect(try Self.found(client, token, [("q", "lantern")]) == [])
            #expect(try Self.found(client, token, [("q", "candle")]) == ["a candle on the stairs"])
            #expect(try client.post("/v1/undo", token: token).status == 200)
            #expect(try Self.found(client, token, [("q", "lantern")]) == ["a lantern on the stairs"])
            #expect(try Self.found(client, token, [("q", "candle")]) == [])
            #expect(try client.post("/v1/redo", token: token).status == 200)
            #expect(try Self.found(client, token, [("q", "cand")]) == ["a candle on the stairs"])
            #expect(try client.delete("/v1/dreams/\(id)", token: token).status == 204)
            #expect(try Self.found(client, token, [("q", "candle")]) == [])
            #expect(try client.post("/v1/undo", token: token).status == 200)
            #expect(try Self.found(client, token, [("q", "stairs")]) == ["a candle on the stairs"])
            // A batch and a duplicate are found like any write.
            #expect(try client.post("/v1/dreams/\(id)/duplicates", token: token).status == 201)
            _ = try client.apply(token, [["type": "addDream", "dream": Self.dream("stairs again")]])
            #expect(try Self.found(client, token, [("q", "stairs")]).count == 3)
        }
    }

    @Test func badParametersAreFourHundredsNamingTheParameter() throws {
        try withServer { client in
            let token = try client.register("careless")
            _ = try client.addDream(token, "a quiet night")
            for (parameter, value) in [
                ("q", String(repeating: "a ", count: 501)), ("q", (1...33).map { "w\($0)" }.joined(separator: " ")),
                ("creature", "griffin"), ("creature", "Shark"), ("effect", "sparkles"), ("tag", "  "), ("tag", String(repeating: "t", count: 41)),
                ("lucid", "yes"), ("lucid", "TRUE"), ("from", "2026-13-01"), ("to", "tomorrow"), ("monthDay", "02-30"),
                ("monthDay", "2-29"), ("monthDay", "13-01"), ("monthDay", "2026-02-01"), ("limit", "0"), ("limit", "101"),
                ("limit", "ten"), ("cursor", "x"), ("cursor", "99.0"), ("cursor", "1.-1"), ("cursor", "1.2.3"),
            ] {
                let response = try client.get(Self.path([(parameter, value)]), token: token)
                #expect(response.status == 400, "\(parameter)=\(value.prefix(30))")
                #expect(response.header("Content-Type") == "application/problem+json")
                #expect(response.json["errors"][0]["parameter"].string == parameter, "\(parameter)=\(value.prefix(30))")
            }
            let reversed = try client.get(Self.path([("from", "2026-11-02"), ("to", "2026-11-01")]), token: token)
            #expect(reversed.status == 400 && reversed.json["errors"][0]["parameter"].string == "to")
            // Whatever the characters of q, it is words: never an error.
            for q in [#"""#, "*", ":", "&", "|", "!", "(", ")", "'", "\\", "NEAR", "AND OR NOT", "a:*", "\"quiet\" AND (night OR *)",
                      "%00", "\u{0}", "🦄", String(repeating: "(\"", count: 400), "night:* & !quiet | (a <-> b)"] {
                let response = try client.get(Self.path([("q", q)]), token: token)
                #expect(response.status == 200, "q=\(q.prefix(30)): \(response.text)")
            }
            #expect(try Self.found(client, token, [("q", "\"quiet\" AND (night")]) == [])
            #expect(try Self.found(client, token, [("q", "\"quiet\" (night")]) == ["a quiet night"])
            #expect(try client.get("/v1/dreams/search").status == 401)
        }
    }

    @Test func anUnchangedJournalAnswersNotModified() throws {
        try withServer { client in
            let token = try client.register("conditional")
            _ = try client.addDream(token, "a quiet night")
            let path = Self.path([("q", "night")])
            let first = try client.get(path, token: token)
            expectJSON(first, version: 1)
            let unchanged = try client.get(path, token: token, headers: [("If-None-Match", "\"1\"")])
            #expect(unchanged.status == 304 && withoutJournal(unchanged.header("ETag")) == "\"1\"" && unchanged.body.isEmpty)
            #expect(try client.get(Self.path([]), token: token, headers: [("If-None-Match", "W/\"1\"")]).status == 304)
            _ = try client.addDream(token, "another night")
            let changed = try client.get(path, token: token, headers: [("If-None-Match", "\"1\"")])
            expectJSON(changed, version: 2)
            #expect(changed.json["total"].int == 2)
        }
    }

    @Test func theRouteIsNotADreamAndOtherJournalsAreNeverSearched() throws {
        try withServer { client in
            let (alice, bob) = (try client.register("alice"), try client.register("bobby"))
            _ = try client.addDream(alice, "alice's secret lantern")
            _ = try client.addDream(bob, "bob's lantern")
            #expect(try Self.found(client, bob, [("q", "lantern")]) == ["bob's lantern"])
            #expect(try Self.found(client, bob, [("q", "secret")]) == [])
            #expect(try client.patch("/v1/dreams/search", json: ["description": "x"], token: bob).status == 404)
            let wrong = try client.post("/v1/dreams/search", json: [:], token: bob)
            #expect(wrong.status == 405 || wrong.status == 404)
        }
    }
}
