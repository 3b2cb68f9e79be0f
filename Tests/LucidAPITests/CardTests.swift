import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

@Suite("Dream cards over HTTP")
struct CardTests {
    @Test func aDreamHasAnSVGCardAndATextCardWithTheJournalsETag() throws {
        try withServer { client in
            let token = try client.register("card-reader")
            let id = try client.addDream(token, ["description": "Sharks circling a glass elevator", "creature": ["kind": "shark"],
                                                 "numberOfCreatures": 12, "effects": ["snow"]])["id"].string!
            let svg = try client.get("/v1/dreams/\(id)/card.svg", token: token)
            #expect(svg.status == 200)
            #expect(svg.header("Content-Type") == "image/svg+xml; charset=utf-8")
            #expect(svg.header("Content-Security-Policy") == "default-src 'none'")
            #expect(withoutJournal(svg.header("ETag")) == "\"1\"")
            #expect(svg.text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            #expect(svg.text.contains(">Sharks circling a glass elevator</text>"))

            let text = try client.get("/v1/dreams/\(id)/card.txt", token: token)
            #expect(text.status == 200)
            #expect(text.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(withoutJournal(text.header("ETag")) == "\"1\"")
            let lines = text.text.split(separator: "\n")
            #expect(lines.first?.hasPrefix("╭") == true && lines.last?.hasPrefix("╰") == true)
            #expect(text.text.contains("Shark ×12") && text.text.contains("[Snow]"))

            // A conditional read of an unchanged journal is 304; after a change, a new card.
            let same = try client.get("/v1/dreams/\(id)/card.txt", token: token, headers: [("If-None-Match", "\"1\"")])
            #expect(same.status == 304)
            _ = try client.patch("/v1/dreams/\(id)", json: ["description": "Sharks in the snow"], token: token)
            let changed = try client.get("/v1/dreams/\(id)/card.txt", token: token, headers: [("If-None-Match", "\"1\"")])
            #expect(changed.status == 200 && withoutJournal(changed.header("ETag")) == "\"2\"")
            #expect(changed.text.contains("Sharks in the snow"))
        }
    }

    @Test func hostileTextIsDrawnNeverRun() throws {
        try withServer { client in
            let token = try client.register("card-hostile")
            let description = "</text><script>alert(1)</script> \u{1B}]0;owned\u{07}\u{1B}[2Jgone"
            let id = try client.addDream(token, ["description": description, "creature": ["kind": "dragon"]])["id"].string!
            let svg = try client.get("/v1/dreams/\(id)/card.svg", token: token).text
            #expect(!svg.contains("<script"))
            #expect(svg.contains("&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
            let text = try client.get("/v1/dreams/\(id)/card.txt", token: token).text
            #expect(text.contains("</text><script>alert(1)</script> gone"))
            #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        }
    }

    @Test func anotherUsersOrAnUnknownDreamHasNoCard() throws {
        try withServer { client in
            let owner = try client.register("card-owner")
            let id = try client.addDream(owner, "Mine")["id"].string!
            let other = try client.register("card-other")
            expectProblem(try client.get("/v1/dreams/\(id)/card.svg", token: other), 404, "not-found")
            expectProblem(try client.get("/v1/dreams/\(UUID().uuidString)/card.txt", token: owner), 404, "not-found")
            expectUnauthorized(try client.get("/v1/dreams/\(id)/card.txt"), tokenSent: false)
        }
    }
}
