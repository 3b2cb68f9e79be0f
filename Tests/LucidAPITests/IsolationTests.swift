import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

@Suite("A token reaches its own user's journal only")
struct IsolationTests {
    /// The parts of a 404 that must not tell another user's dream from a dream that
    /// does not exist: status, content type, and the body with ids and request id blanked.
    private static func shape(_ response: TestResponse, id: String) -> String {
        var json = response.json.object?.mapValues(\.value) ?? [:]
        json["requestId"] = nil
        let text = JSON(json as Any).description
        return "\(response.status) \(response.header("Content-Type") ?? "") "
            + text.replacingOccurrences(of: id.lowercased(), with: "<id>").replacingOccurrences(of: id.uppercased(), with: "<id>")
    }

    @Test func anotherUsersDreamIsExactlyLikeAnUnknownOne() throws {
        try withServer { client in
            let alice = try client.register("alice")
            let bob = try client.register("bob")
            let dream = try client.addDream(alice, "Alice's secret dream")
            let id = try #require(dream["id"].string)
            let unknown = UUID().uuidString.lowercased()
            let aliceModel = try client.model(alice)
            let aliceHistory = try client.history(alice)

            let requests: [(String, (String) throws -> TestResponse)] = [
                ("GET", { try client.get("/v1/dreams/\($0)", token: bob) }),
                ("HEAD", { try client.head("/v1/dreams/\($0)", token: bob) }),
                ("PATCH", { try client.patch("/v1/dreams/\($0)", json: ["description": "Bob was here"], token: bob) }),
                ("DELETE", { try client.delete("/v1/dreams/\($0)", token: bob) }),
                ("move", { try client.post("/v1/actions", json: ["actions": [["type": "moveDream", "id": $0, "toIndex": 0]]], token: bob) }),
                ("update", { try client.post("/v1/actions", json: ["actions": [["type": "updateDream", "id": $0, "numberOfCreatures": 5]]],
                                             token: bob) }),
                ("delete", { try client.post("/v1/actions", json: ["actions": [["type": "deleteDream", "id": $0]]], token: bob) }),
            ]
            for (name, send) in requests {
                let theirs = try send(id)
                let missing = try send(unknown)
                #expect(theirs.status == 404, "\(name)")
                if name != "HEAD" {
                    expectProblem(theirs, 404, "not-found")
                    #expect(Self.shape(theirs, id: id) == Self.shape(missing, id: unknown), "\(name)")
                }
                if ["move", "update", "delete"].contains(name) { #expect(pointers(theirs) == ["/actions/0/id"]) }
            }
            #expect(try client.model(alice) == aliceModel)
            #expect(try client.history(alice) == aliceHistory)
            #expect(try client.model(bob)["version"].int == 0)

            // Bob may use the same client-made id in his own journal: ids are per journal,
            // and a 409 would reveal Alice's dream.
            let same = try client.post("/v1/dreams", json: ["id": id, "description": "Bob's dream", "creature": ["kind": "shark"]],
                                       token: bob)
            #expect(same.status == 201)
            #expect(try client.get("/v1/dreams/\(id)", token: alice).json == dream)
            #expect(try client.get("/v1/dreams/\(id)", token: bob).json["description"].string == "Bob's dream")
            #expect(try client.model(alice) == aliceModel)
        }
    }

    @Test func undoRedoVersionsAndHistoryStayInTheirJournal() throws {
        try withServer { client in
            let alice = try client.register("alice")
            let bob = try client.register("bob")
            try client.addDream(alice, "Alice one")
            try client.addDream(alice, "Alice two")
            let aliceModel = try client.model(alice)
            let aliceHistory = try client.history(alice)

            expectProblem(try client.post("/v1/undo", token: bob), 409, "nothing-to-undo")
            expectProblem(try client.post("/v1/redo", token: bob), 409, "nothing-to-redo")
            for version in [1, 2] {
                expectProblem(try client.get("/v1/versions/\(version)", token: bob), 404, "not-found")
            }
            expectProblem(try client.get("/v1/changes?since=1", token: bob), 404, "not-found")
            #expect(try client.history(bob) == JSON(["canUndo": false, "canRedo": false, "items": [Any](), "nextCursor": NSNull()]))
            #expect(try client.get("/v1/dreams", token: bob).json == JSON(["version": 0, "items": [Any](), "nextCursor": NSNull()]))
            #expect(try client.get("/v1/versions/0", token: bob).json == JSON(["version": 0, "favoriteCreature": emptyContent["favoriteCreature"].value!,
                                                                               "dreams": [Any]()]))

            // Bob's own changes and undos touch only Bob's journal.
            try client.addDream(bob, "Bob one")
            _ = try client.put("/v1/favorite-creature", json: ["creature": ["kind": "shark"]], token: bob)
            #expect(try client.post("/v1/undo", token: bob).status == 200)
            #expect(try client.post("/v1/undo", token: bob).status == 200)
            #expect(try client.post("/v1/redo", token: bob).status == 200)
            #expect(try client.model(alice) == aliceModel)
            #expect(try client.history(alice) == aliceHistory)
            #expect(try client.model(bob)["dreams"].array?.compactMap { $0["description"].string } == ["Bob one"])

            // Alice's undo still reverts her own newest change.
            #expect(try client.post("/v1/undo", token: alice).status == 200)
            #expect(try client.model(alice)["dreams"].array?.compactMap { $0["description"].string } == ["Alice one"])
            #expect(try client.model(bob)["dreams"].array?.compactMap { $0["description"].string } == ["Bob one"])
        }
    }
}
