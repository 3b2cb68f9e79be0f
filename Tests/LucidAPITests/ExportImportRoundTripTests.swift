import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

/// A journal exported, imported into a new account and exported again comes out the same:
/// every dream with every field, in the same order, and the favorite creature. Only when it
/// was exported and the version number (the new journal's own) differ.
@Suite struct ExportImportRoundTripTests {
    @Test func aJournalExportedImportedAndExportedAgainIsTheSame() throws {
        try withServer { client in
            let ada = try client.register("ada")
            _ = try client.addDream(ada, [
                "description": "Violet sea, a UNICORN", "creature": ["kind": "unicorn", "color": "pink"], "effects": ["magic", "snow"],
                "numberOfCreatures": 3, "dreamtOn": "2026-11-01", "lucid": true, "tags": ["Flying", "violet sea"],
            ] as [String: Any])
            _ = try client.addDream(ada, "Teeth falling out")
            _ = try client.addDream(ada, ["description": "# Not a heading\n\n<b>nor HTML</b>", "creature": ["kind": "shark"]] as [String: Any])
            let batch: [String: Any] = ["actions": [["type": "setFavoriteCreature", "creature": ["kind": "dragon"]]]]
            #expect(try client.post("/v1/actions", json: batch, token: ada).status == 200)
            let exported = try client.get("/v1/export", token: ada)
            #expect(exported.status == 200)

            let grace = try client.register("grace")
            let imported = try client.post("/v1/import", body: exported.body, token: grace, headers: [("Content-Type", "application/json")])
            #expect(imported.status == 200)
            #expect(imported.json == JSON(["version": 1, "added": 3, "skipped": 0]))

            let first = try #require(exported.json.object)
            let second = try #require(try client.exportJSON(grace).object)
            let unchanged = { (export: [String: JSON]) in export.filter { $0.key != "exportedAt" && $0.key != "version" } }
            #expect(unchanged(first) == unchanged(second))
            #expect(first["dreams"]?.count == 3 && first["favoriteCreature"] == JSON(["kind": "dragon"]))
            #expect(Set(first.keys) == ["format", "formatVersion", "exportedAt", "version", "favoriteCreature", "dreams"])
        }
    }
}
