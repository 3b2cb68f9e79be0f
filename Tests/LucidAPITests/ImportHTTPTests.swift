import LucidCrypto
import Foundation
import LucidAPI
import LucidHTTPTesting
import LucidServerTesting
import Testing

/// `POST /v1/import` against the real server: Lucid and Day One files, one version per
/// import, one undo to take it back, nothing imported from a file with a bad entry.
@Suite("Importing a journal over HTTP")
struct ImportHTTPTests {
    /// The hand-written Day One sample: four entries (the import reader's tests read it too).
    static let sample: [UInt8] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../LucidWireTests/Samples/dayone-sample.json")
        return Array((try? Data(contentsOf: url)) ?? Data())
    }()

    static let first = "0d2f6c1e-7a3b-4c5d-8e9f-a0b1c2d3e4f5"
    static let second = "1e3a7d2f-8b4c-4d6e-9fa0-b1c2d3e4f506"

    /// A dream as `GET /v1/dreams/{id}` shows it.
    static func dream(_ id: String, _ description: String, creature: [String: Any] = ["kind": "shark"]) -> [String: Any] {
        [
            "id": id, "description": description, "creature": creature, "effects": ["fireflies", "rain"],
            "numberOfCreatures": 2, "dreamtOn": "2026-10-31", "lucid": true, "tags": ["Sea", "night"],
            "createdAt": "2026-10-31T06:00:00.000Z", "updatedAt": "2026-11-01T07:30:00.250Z",
        ]
    }

    /// A Lucid export of `dreams`.
    static func lucidFile(_ dreams: [[String: Any]], favorite: [String: Any] = ["kind": "dragon"]) -> [String: Any] {
        [
            "format": "lucid", "formatVersion": 1, "exportedAt": "2026-11-22T00:00:00.000Z", "version": 9,
            "favoriteCreature": favorite, "dreams": dreams,
        ]
    }

    static func importing(_ client: TestClient, _ token: String, body: [UInt8], headers: [(name: String, value: String)] = [])
        throws -> TestResponse
    {
        try client.post("/v1/import", body: body, token: token, headers: [("Content-Type", "application/json")] + headers)
    }

    @Test func aLucidExportBecomesOneVersionWithEveryDreamAsItWas() throws {
        try withServer { client in
            let token = try client.register("importer")
            let dreams = [Self.dream(Self.first, "Violet sea, a UNICORN"), Self.dream(Self.second, "Teeth")]
            let answer = try client.post("/v1/import", json: Self.lucidFile(dreams), token: token)
            expectJSON(answer, version: 1)
            #expect(answer.json == JSON(["version": 1, "added": 2, "skipped": 0]))

            let model = try client.model(token)
            #expect(model["dreams"] == JSON(dreams))
            #expect(model["favoriteCreature"] == JSON(["kind": "dragon"]))
            let history = try client.history(token)
            #expect(history["items"].count == 1)
            #expect(history["items"][0]["actions"] == JSON([
                ["type": "importDreams", "dreams": dreams, "favoriteCreature": ["kind": "dragon"]] as [String: Any],
            ]))
        }
    }

    @Test func aDayOneFileImportedTwiceAddsNothingTheSecondTime() throws {
        try withServer { client in
            let token = try client.register("dayone")
            let once = try Self.importing(client, token, body: Self.sample)
            expectJSON(once, version: 1)
            #expect(once.json == JSON(["version": 1, "added": 4, "skipped": 0]))
            let twice = try Self.importing(client, token, body: Self.sample)
            expectJSON(twice, version: 1)
            #expect(twice.json == JSON(["version": 1, "added": 0, "skipped": 4]))
            #expect(try client.history(token)["items"].count == 1)

            let model = try client.model(token)
            #expect(model["dreams"][0] == JSON([
                "id": "5c1a2e7f-0b9d-4c36-a8e1-f2d3c4b5a697",
                "description": "# Over the harbour\n\nI was standing on the pier and noticed the lamps had *two* shadows each\\. That was the sign: I knew I was dreaming, jumped, and flew low over the boats until the water turned violet\\.",
                "creature": ["kind": "unicorn", "color": "yellow"], "effects": [] as [Any], "numberOfCreatures": 1,
                "dreamtOn": "2023-03-04", "lucid": true, "tags": ["Flying", "lucid"],
                "createdAt": "2023-03-04T06:12:40.000Z", "updatedAt": "2023-03-04T06:20:02.000Z",
            ] as [String: Any]))
            #expect(model["dreams"].array?.map { $0["dreamtOn"].string ?? "" } == ["2023-03-04", "2023-03-06", "2023-03-07", "2023-03-11"])
        }
    }

    @Test func oneUndoTakesTheWholeImportBackAndRedoBringsItAgain() throws {
        try withServer { client in
            let token = try client.register("undoer")
            try client.addDream(token, "Mine, before the import")
            let before = try client.model(token)
            #expect(try Self.importing(client, token, body: Self.sample).json["version"].int == 2)
            #expect(try client.model(token)["dreams"].count == 5)

            let undo = try client.post("/v1/undo", token: token)
            expectJSON(undo, version: 3)
            #expect(undo.json["diff"]["deleted"].count == 4)
            var after = try client.model(token)
            #expect(after["dreams"] == before["dreams"] && after["favoriteCreature"] == before["favoriteCreature"])

            // Importing again after the undo adds them again, as a new change.
            #expect(try Self.importing(client, token, body: Self.sample).json == JSON(["version": 4, "added": 4, "skipped": 0]))
            expectJSON(try client.post("/v1/undo", token: token), version: 5)
            let redo = try client.post("/v1/redo", token: token)
            expectJSON(redo, version: 6)
            #expect(redo.json["diff"]["inserted"].count == 4)
            after = try client.model(token)
            #expect(after["dreams"].count == 5)
        }
    }

    @Test func aFileWithBadEntriesImportsNothingAndNamesEachOne() throws {
        try withServer { client in
            let token = try client.register("careful")
            var entries = (try JSONSerialization.jsonObject(with: Data(Self.sample)) as? [String: Any])?["entries"] as? [[String: Any]] ?? []
            entries[1]["text"] = "   \n"
            entries[3]["creationDate"] = "2023-03-11 09:00"
            entries.append(["uuid": "F00D", "creationDate": "2023-03-12T09:00:00Z", "text": "ok", "tags": [String(repeating: "t", count: 41)]])
            let answer = try client.post("/v1/import", json: ["metadata": ["version": "1.0"], "entries": entries], token: token)
            expectInvalid(answer, ["/entries/1/text", "/entries/3/creationDate", "/entries/4/uuid"])
            let model = try client.model(token)
            #expect(model["version"].int == 0 && model["dreams"].count == 0)

            // A bad tag is named where it stands once the entry is otherwise fine.
            entries = [["uuid": "F00DF00DF00DF00DF00DF00DF00DF00D", "creationDate": "2023-03-12T09:00:00Z", "text": "ok",
                        "tags": ["fine", String(repeating: "t", count: 41)]]]
            expectInvalid(try client.post("/v1/import", json: ["entries": entries], token: token), ["/entries/0/tags/1"])
            let lucid = try client.post(
                "/v1/import", json: Self.lucidFile([Self.dream(Self.first, "ok"), Self.dream(Self.second, "ok", creature: ["kind": "kraken"])]),
                token: token)
            expectInvalid(lucid, ["/dreams/1/creature/kind"])
            expectInvalid(try client.post("/v1/import", json: ["format": "lucid", "formatVersion": 2, "dreams": []], token: token), ["/formatVersion"])
            #expect(try client.model(token)["version"].int == 0)
        }
    }

    @Test func theFilesFavoriteCreatureIsTakenOnlyByAJournalThatNeverChoseOne() throws {
        try withServer { client in
            let fresh = try client.register("fresh")
            #expect(try client.post("/v1/import", json: Self.lucidFile([], favorite: ["kind": "crusty"]), token: fresh).json
                == JSON(["version": 1, "added": 0, "skipped": 0]))
            #expect(try client.model(fresh)["favoriteCreature"] == JSON(["kind": "crusty"]))

            let chooser = try client.register("chooser")
            #expect(try client.put("/v1/favorite-creature", json: ["creature": ["kind": "shark"]], token: chooser).status == 200)
            let answer = try client.post("/v1/import", json: Self.lucidFile([Self.dream(Self.first, "ok")], favorite: ["kind": "crusty"]), token: chooser)
            #expect(answer.json == JSON(["version": 2, "added": 1, "skipped": 0]))
            #expect(try client.model(chooser)["favoriteCreature"] == JSON(["kind": "shark"]))
            // A Day One file has no favorite: its dreams get the journal's.
            #expect(try Self.importing(client, chooser, body: Self.sample).json["added"].int == 4)
            #expect(try client.model(chooser)["dreams"][1]["creature"] == JSON(["kind": "shark"]))
        }
    }

    @Test func importsHaveTheirOwnBodyLimit() throws {
        let server = try TestServer(clock: nil)
        defer {
            server.stop()
            server.removeFolder()
        }
        try server.start(APIConfiguration(passwordCost: .minimum, maxBodyBytes: 64 << 10, maxImportBytes: 256 << 10))
        let client = TestClient(server: server)
        let token = try client.register("limited")
        // Bigger than the journal's body limit, within the import's.
        let padding = String(repeating: "x", count: 100 << 10)
        let file: [String: Any] = ["metadata": ["padding": padding], "entries": []]
        #expect(try client.post("/v1/import", json: file, token: token).status == 200)
        expectProblem(try client.post("/v1/dreams", json: ["description": padding, "creature": ["kind": "shark"]], token: token),
                      413, "payload-too-large")
        let huge: [String: Any] = ["metadata": ["padding": String(repeating: padding, count: 3)], "entries": []]
        let refused = try client.post("/v1/import", json: huge, token: token)
        expectProblem(refused, 413, "payload-too-large")
        #expect(refused.json["detail"].string == "The body is larger than 262144 bytes.")
        // Without a token nothing is read at all.
        expectUnauthorized(try client.post("/v1/import", json: huge), tokenSent: false)
    }

    @Test func aRetryWithTheSameIdempotencyKeyGetsTheSameAnswer() throws {
        try withServer { client in
            let token = try client.register("retrier")
            let key = ("Idempotency-Key", "import-\(UUID().uuidString)")
            let first = try Self.importing(client, token, body: Self.sample, headers: [key])
            #expect(first.json == JSON(["version": 1, "added": 4, "skipped": 0]))
            let retry = try Self.importing(client, token, body: Self.sample, headers: [key])
            #expect(retry.status == 200 && retry.body == first.body)
            #expect(retry.header("Idempotent-Replayed") == "true")
            // Without the key the same file is skipped whole, and says so.
            #expect(try Self.importing(client, token, body: Self.sample).json == JSON(["version": 1, "added": 0, "skipped": 4]))
            expectProblem(try client.post("/v1/import", json: ["entries": []], token: token, headers: [key]), 422, "idempotency-key-reused")
        }
    }

    @Test func anotherUsersJournalIsUntouched() throws {
        try withServer { client in
            let owner = try client.register("owner")
            let shared = try client.addDream(owner, Self.dream(Self.first, "The owner's").filter { ["id", "description", "creature"].contains($0.key) })
            let ownerBefore = try client.model(owner)

            let other = try client.register("other")
            // The same id is another dream in another journal: it is added there, never looked up here.
            let answer = try client.post("/v1/import", json: Self.lucidFile([Self.dream(Self.first, "Someone else's")]), token: other)
            #expect(answer.json == JSON(["version": 1, "added": 1, "skipped": 0]))
            #expect(try client.model(owner) == ownerBefore)
            #expect(try client.get("/v1/dreams/\(Self.first)", token: owner).json == shared)
            #expect(try client.get("/v1/dreams/\(Self.first)", token: other).json["description"].string == "Someone else's")
        }
    }

    @Test func theJournalsModelImportedIntoANewAccountIsTheSameJournal() throws {
        try withServer { client in
            let token = try client.register("traveller")
            try client.addDream(token, ["description": "Ünïcode ✨ and \"quotes\"", "creature": ["kind": "unicorn", "color": "white"],
                                        "effects": ["magic"], "tags": ["Sea"], "lucid": true, "dreamtOn": "2025-01-02"])
            try client.addDream(token, "Second")
            _ = try client.put("/v1/favorite-creature", json: ["creature": ["kind": "crusty"]], token: token)
            let model = try client.model(token)
            var file = Self.lucidFile([])
            file["favoriteCreature"] = model["favoriteCreature"].value
            file["dreams"] = model["dreams"].value
            let newcomer = try client.register("newcomer")
            #expect(try client.post("/v1/import", json: file, token: newcomer).json == JSON(["version": 1, "added": 2, "skipped": 0]))
            let copy = try client.model(newcomer)
            #expect(copy["dreams"] == model["dreams"] && copy["favoriteCreature"] == model["favoriteCreature"])
        }
    }

    /// Hostile files: each answered 400 or 422 (never a 5xx), and nothing imported.
    @Test func hostileFilesAreRefusedAndNothingIsImported() throws {
        try withServer { client in
            let token = try client.register("fuzzer")
            let hostile: [(body: String, status: Int)] = [
                // A million tiny entries: past 100,000 they are only counted.
                (#"{"entries":["# + Array(repeating: "{}", count: 1_000_000).joined(separator: ",") + "]}", 422),
                // A text of 3 MiB, a tag list of 300,000 numbers, a uuid that is an object.
                (#"{"entries":[{"uuid":"5C1A2E7F0B9D4C36A8E1F2D3C4B5A697","creationDate":"2023-01-01T10:00:00Z","text":""#
                    + String(repeating: "é", count: 1_500_000) + #""}]}"#, 422),
                (#"{"entries":[{"tags":["# + Array(repeating: "1", count: 300_000).joined(separator: ",") + "]}]}", 422),
                (#"{"entries":[{"uuid":{"a":[1,2,{"b":null}]},"creationDate":true,"text":7,"tags":[[]],"starred":"no"}]}"#, 422),
                // Dates out of range.
                (#"{"entries":[{"uuid":"5C1A2E7F0B9D4C36A8E1F2D3C4B5A697","creationDate":"0000-12-31T23:00:00Z","text":"x"},"#
                    + #"{"uuid":"5C1A2E7F0B9D4C36A8E1F2D3C4B5A697","creationDate":"9999-12-31T23:30:00-01:00","text":"x"}]}"#, 422),
                (#"{"format":"lucid","formatVersion":1e400,"dreams":[]}"#, 422),
                (#"{"format":"lucid","formatVersion":1,"dreams":[{"id":"00000000-0000-0000-0000-000000000001","description":"x","#
                    + #""creature":{"kind":"shark"},"createdAt":"2026-11-22T04:17:26.123Z","numberOfCreatures":1e999}]}"#, 422),
                // Not JSON: NaN, a lone surrogate, nesting past the limit, a duplicate member read.
                (#"{"entries":[{"uuid":NaN}]}"#, 400), (#"{"entries":[{"text":"\ud83d"}]}"#, 400),
                (#"{"entries":"# + String(repeating: "[", count: 100_000), 400),
                (#"{"entries":[],"entries":[]}"#, 400),
            ]
            for (body, status) in hostile {
                let answer = try Self.importing(client, token, body: Array(body.utf8))
                #expect(answer.status == status, "\(body.prefix(120)): \(answer.text.prefix(300))")
            }
            #expect(try client.model(token)["version"].int == 0)
        }
    }

    @Test func badBodiesAreRefusedBeforeAnythingIsRead() throws {
        try withServer { client in
            let token = try client.register("hostile")
            expectProblem(try Self.importing(client, token, body: [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]), 400, "bad-request")
            expectProblem(try client.post("/v1/import", body: Self.sample, token: token, headers: [("Content-Type", "text/plain")]),
                          415, "unsupported-media-type")
            let deep = Array((#"{"metadata":"# + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "}").utf8)
            expectProblem(try Self.importing(client, token, body: deep), 400, "bad-request")
            expectProblem(try Self.importing(client, token, body: Array(#"{"entries":[NaN]}"#.utf8)), 400, "bad-request")
            expectProblem(try Self.importing(client, token, body: Self.sample, headers: [("If-Match", "\"7\"")]), 412, "precondition-failed")
            #expect(try client.model(token)["version"].int == 0)
        }
    }
}
