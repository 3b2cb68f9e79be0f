import LucidModel
import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

@Suite("Exporting a journal over HTTP")
struct ExportTests {
    private static var pink: [String: Any] { ["kind": "unicorn", "color": "pink"] }

    /// A journal of two dreams, the first with every field set, the second moved before it,
    /// and a dragon for favorite: version 4 at `clock`'s time plus a minute.
    private static func fillJournal(_ client: TestClient, _ token: String, _ clock: TestClock) throws -> (JSON, JSON) {
        let first = try client.addDream(token, [
            "description": "Violet sea, a *unicorn*\nwith <b>HTML</b>", "creature": pink, "effects": ["fireflies", "magic"],
            "tags": ["Sea", "a_b"], "lucid": true, "dreamtOn": "2026-11-01", "numberOfCreatures": 2,
        ])
        clock.advance(seconds: 30)
        let second = try client.addDream(token, "# Not a heading")
        _ = try client.put("/v1/favorite-creature", json: ["creature": ["kind": "dragon"]], token: token)
        try client.apply(token, [["type": "moveDream", "id": second["id"].string!, "toIndex": 0]])
        clock.advance(seconds: 30)
        return (first, second)
    }

    @Test func lucidJSONHoldsTheJournalAsTheAPIRendersItWithItsVersion() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("exporter")
            _ = try Self.fillJournal(client, token, clock)
            let model = try client.model(token)

            let response = try client.get("/v1/export", token: token)
            expectJSON(response, version: nil)
            // Weak (the body holds when it was made) and naming the form.
            #expect(withoutJournal(response.header("ETag")) == #"W/"4-lucid""#)
            #expect(response.header("Vary") == "Accept, Authorization")
            #expect(response.header("Cache-Control") == "private, no-cache")
            #expect(response.header("Content-Disposition") == "attachment; filename=\"lucid-exporter-2026-11-22.json\"")
            #expect(response.header("Transfer-Encoding") == "chunked")
            #expect(response.json == JSON([
                "format": "lucid", "formatVersion": 1, "exportedAt": rfc3339(clock.now.millisecondsSince1970), "version": 4,
                "favoriteCreature": ["kind": "dragon"], "dreams": model["dreams"].value!,
            ]))
            for dream in try #require(response.json["dreams"].array) {
                #expect(dream == (try client.get("/v1/dreams/\(dream["id"].string!)", token: token).json))
            }
            #expect(response.json["history"].exists == false)

            let cached = try client.get("/v1/export", token: token, headers: [("If-None-Match", #"W/"4-lucid""#)])
            #expect(cached.status == 304 && cached.body.isEmpty && withoutJournal(cached.header("ETag")) == #"W/"4-lucid""#)
            #expect(cached.header("Vary") == "Accept, Authorization")
            // Another version, or another form of this one, is not what the client has.
            for tag in [#"W/"3-lucid""#, "\"4\"", #"W/"4-markdown""#, #"W/"4-lucid-history""#] {
                let other = try client.get("/v1/export", token: token, headers: [("If-None-Match", tag)])
                #expect(other.status == 200 && other.json["version"].int == 4, "\(tag)")
            }
            let history = try client.get("/v1/export?history=true", token: token, headers: [("If-None-Match", #"W/"4-lucid""#)])
            #expect(history.status == 200 && withoutJournal(history.header("ETag")) == #"W/"4-lucid-history""#)

            let head = try client.head("/v1/export", token: token)
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.header("Content-Type") == "application/json; charset=utf-8" && withoutJournal(head.header("ETag")) == #"W/"4-lucid""#)

            #expect(try client.get("/v1/export").status == 401)
        }
    }

    @Test func anEmptyJournalExportsVersionZero() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("newcomer")
            #expect(try client.exportJSON(token, history: true) == JSON([
                "format": "lucid", "formatVersion": 1, "exportedAt": rfc3339(clock.now.millisecondsSince1970), "version": 0,
                "favoriteCreature": ["kind": "unicorn", "color": "yellow"], "dreams": [Any](), "history": [Any](),
            ]))
        }
    }

    @Test func historyHoldsEveryVersionOldestFirstAsHistoryListsThem() throws {
        try withServer { client in
            let token = try client.register("historian")
            let first = try client.addDream(token, "First")
            _ = try client.patch("/v1/dreams/\(first["id"].string!)", json: ["lucid": true, "tags": ["x"]], token: token)
            // Batches whose actions pass the 256 KiB of a history page, between small versions:
            // the export pages past them oldest first all the same.
            let long = String(repeating: "The violet sea again. ", count: 450)
            for (round, big) in [true, true, false, true, false, false, true].enumerated() {
                if big {
                    try client.apply(token, (0..<30).map { index in
                        ["type": "addDream", "dream": ["description": "\(round).\(index) " + long, "creature": ["kind": "crusty"]]]
                    })
                } else {
                    _ = try client.addDream(token, "Small \(round)")
                }
            }
            _ = try client.post("/v1/undo", token: token)
            _ = try client.post("/v1/redo", token: token)
            _ = try client.delete("/v1/dreams/\(first["id"].string!)", token: token)

            var listed: [JSON] = []
            var cursor: Int?
            repeat {
                let page = try client.get("/v1/history?limit=100" + (cursor.map { "&before=\($0)" } ?? ""), token: token).json
                listed += page["items"].array ?? []
                cursor = page["nextCursor"].int
            } while cursor != nil
            #expect(listed.count == 12)

            let export = try client.exportJSON(token, history: true)
            #expect(export["version"].int == 12)
            #expect(export["history"] == JSON(listed.reversed().map { $0.value! }))
            #expect(export["history"].array?.map { $0["version"].int } == (1...12).map { $0 })
            #expect(export["dreams"] == (try client.model(token))["dreams"])
        }
    }

    @Test func markdownIsOneReadableDocumentAskedForEitherWay() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("dream_er")
            _ = try Self.fillJournal(client, token, clock)
            let expected = """
                # Dream journal of dream\\_er

                Exported from Lucid at \(rfc3339(clock.now.millisecondsSince1970)), version 4: 2 dreams. Favorite creature: Dragon.

                ## 2026-11-22

                - Creature: Shark
                - Effects: none
                - Tags: none
                - Lucid: no

                \\# Not a heading

                ## 2026-11-01

                - Creatures: 2 × Pink unicorn
                - Effects: Magic, Fireflies
                - Tags: Sea, a\\_b
                - Lucid: yes

                Violet sea, a \\*unicorn\\*  
                with \\<b\\>HTML\\</b\\>

                """
            let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
            for (path, accept) in [("/v1/export", "text/markdown"), ("/v1/export?format=markdown", browser),
                                   ("/v1/export", "application/json;q=0.5, text/markdown")] {
                let response = try client.get(path, token: token, headers: [("Accept", accept)])
                #expect(response.status == 200)
                #expect(response.header("Content-Type") == "text/markdown; charset=utf-8")
                #expect(withoutJournal(response.header("ETag")) == #"W/"4-markdown""#)
                #expect(response.header("Content-Disposition") == "attachment; filename=\"lucid-dream_er-2026-11-22.md\"")
                #expect(response.text == expected, "\(path) \(accept)")
            }
        }
    }

    @Test func hostileDescriptionsStayTextAndCannotBreakTheDocument() throws {
        try withServer { client in
            let token = try client.register("hostile")
            let hostile = [
                "# Heading\n## Sub\nSetext\n===\nAnother\n---\n***",
                "<div>html</div>\n<script>alert(1)</script>\n<!-- c -->\n<http://auto.link>",
                "1. one\n2) two\n- dash\n+ plus\n* star\n> quote",
                "    indented code\n\tTabbed\n```\nfence\n```\n~~~",
                "| a | b |\n|---|---|\n| 1 | 2 |",
                "*em* _em_ `code` ~~s~~ [l](x) ![i](y) [r]: http://z &amp; $m$ \\",
                "Line one\r\nLine two\rLine three\n\n\nNew paragraph",
            ]
            for description in hostile {
                _ = try client.addDream(token, ["description": description, "creature": ["kind": "dragon"], "tags": ["*x*", "<b>"]])
            }
            let markdown = try client.get("/v1/export?format=markdown", token: token).text
            let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
            // The document's own structure, and nothing else: one title, a heading and a list of
            // four per dream; no line of a description begins a block of its own.
            #expect(lines.filter { $0.hasPrefix("# ") }.count == 1)
            #expect(lines.filter { $0.hasPrefix("## ") }.count == hostile.count)
            #expect(lines.filter { $0.hasPrefix("- ") }.count == 4 * hostile.count)
            #expect(lines.filter { $0.hasPrefix("- Tags: \\*x\\*, \\<b\\>") }.count == hostile.count)
            let blockStarts = ["#", ">", "-", "+", "*", "=", "<", "`", "~", "|", " ", "\t", "_"]
            let descriptionLines = lines.filter { !$0.hasPrefix("# ") && !$0.hasPrefix("## ") && !$0.hasPrefix("- ") }
            for line in descriptionLines {
                #expect(!blockStarts.contains { line.hasPrefix($0) }, "\(line)")
                #expect(line.wholeMatch(of: /[0-9]{1,9}[.)].*/) == nil, "\(line)")
            }
            #expect(markdown.contains("\\<script\\>alert(1)\\</script\\>  \n"))
            #expect(markdown.contains("&#32;   indented code  \n&#9;Tabbed  \n\\`\\`\\`  \n"))
            #expect(markdown.contains("Line one  \nLine two  \nLine three\n\n\nNew paragraph\n"))
        }
    }

    @Test func dayOneJSONHasDayOnesLayoutWithTheRestInTags() throws {
        let clock = TestClock()
        try withServer(clock: clock) { client in
            let token = try client.register("diarist")
            let (first, second) = try Self.fillJournal(client, token, clock)
            let firstID = first["id"].string!
            clock.advance(seconds: 0.5)
            _ = try client.patch("/v1/dreams/\(firstID)", json: ["numberOfCreatures": 3], token: token)
            func dayOne(_ id: String) -> String { id.replacingOccurrences(of: "-", with: "").uppercased() }

            let response = try client.get("/v1/export?format=dayone", token: token)
            expectJSON(response, version: nil)
            #expect(withoutJournal(response.header("ETag")) == #"W/"5-dayone""#)
            #expect(response.header("Content-Disposition") == "attachment; filename=\"lucid-diarist-2026-11-22-dayone.json\"")
            #expect(response.json == JSON([
                "metadata": ["version": "1.0"],
                "entries": [
                    [
                        "uuid": dayOne(second["id"].string!), "creationDate": "2026-11-22T04:17:56Z",
                        "modifiedDate": "2026-11-22T04:17:56Z", "timeZone": "UTC", "text": "# Not a heading",
                        "tags": ["Creature: Shark"], "starred": false,
                    ],
                    [
                        "uuid": dayOne(firstID), "creationDate": "2026-11-22T04:17:26Z", "modifiedDate": "2026-11-22T04:18:26Z",
                        "timeZone": "UTC", "text": "Violet sea, a *unicorn*\nwith <b>HTML</b>",
                        "tags": ["Sea", "a_b", "Creature: Pink unicorn", "Creatures: 3", "Effect: Magic", "Effect: Fireflies",
                                 "Dreamt on: 2026-11-01"],
                        "starred": true,
                    ],
                ],
            ]))
            #expect(try client.get("/v1/export?format=dayone", token: token, headers: [("If-None-Match", #"W/"5-dayone""#)]).status == 304)
            #expect(try client.get("/v1/export?format=dayone", token: token, headers: [("If-None-Match", #"W/"5-lucid""#)]).status == 200)
        }
    }

    @Test func aFormatOrAcceptThatCannotBeServedIsRefused() throws {
        try withServer { client in
            let token = try client.register("negotiator")
            for query in ["format=xml", "format=", "format=Markdown", "history=yes", "history=true&format=dayone",
                          "history=true&format=markdown"] {
                let refused = try client.get("/v1/export?\(query)", token: token)
                expectProblem(refused, 400, "bad-request")
                #expect(refused.json["errors"][0]["parameter"].exists, "\(query)")
            }
            let markdownOnly = [("Accept", "text/markdown")]
            expectProblem(try client.get("/v1/export?history=true", token: token, headers: markdownOnly), 400, "bad-request")
            for (query, accept) in [("", "text/plain"), ("", "application/json;q=0, text/markdown;q=0"),
                                    ("?format=markdown", "application/json"), ("?format=dayone", "text/markdown"),
                                    ("?format=lucid", "text/*")] {
                expectProblem(try client.get("/v1/export\(query)", token: token, headers: [("Accept", accept)]), 406, "not-acceptable")
            }
            for (query, accept, type) in [("", "*/*", "application/json"), ("", "text/*", "text/markdown"),
                                          ("", "text/markdown;q=0.4, application/*;q=0.5", "application/json"),
                                          ("?format=dayone", "application/*", "application/json")] {
                let served = try client.get("/v1/export\(query)", token: token, headers: [("Accept", accept)])
                #expect(served.status == 200 && served.header("Content-Type") == "\(type); charset=utf-8", "\(accept)")
            }
        }
    }

    @Test func anotherUsersJournalIsNeverInTheExport() throws {
        try withServer { client in
            let alice = try client.register("alice")
            let bob = try client.register("bob")
            let mine = try client.addDream(alice, "Alice's marker 7f3a in the sea")
            let theirs = try client.addDream(bob, ["description": "Bob's marker 91c2 on the moon", "creature": ["kind": "shark"],
                                                   "tags": ["bob-only"]])
            _ = try client.patch("/v1/dreams/\(theirs["id"].string!)", json: ["lucid": true], token: bob)
            let theirID = theirs["id"].string!
            for query in ["", "?history=true", "?format=markdown", "?format=dayone"] {
                let export = try client.get("/v1/export\(query)", token: alice)
                #expect(export.status == 200)
                #expect(export.text.contains("7f3a"), "\(query)")
                for secret in ["91c2", "bob-only", theirID, theirID.replacingOccurrences(of: "-", with: "").uppercased(), "bob"] {
                    #expect(!export.text.contains(secret), "\(query) holds \(secret)")
                }
            }
            let theirExport = try client.exportJSON(bob, history: true)
            #expect(!theirExport.description.contains(mine["id"].string!) && !theirExport.description.contains("7f3a"))
            #expect(theirExport["history"].count == 2)
        }
    }

    @Test func aLargeJournalReadSlowlyArrivesWholeAndParses() throws {
        try withServer { client in
            let token = try client.register("prolific")
            for batch in 0..<10 {
                try client.apply(token, (0..<1_000).map { index in
                    ["type": "addDream", "dream": [
                        "description": "Dream \(batch * 1_000 + index): a violet sea, a lantern, the tide singing <again>.",
                        "creature": ["kind": "dragon"], "tags": ["sea"],
                    ]]
                })
            }
            let model = try client.model(token)
            let response = try client.slowDownload("/v1/export", token: token, pause: .milliseconds(20))
            #expect(response.status == 200)
            #expect(response.body.count > 2_000_000)
            let export = response.json
            #expect(export["version"].int == 10)
            #expect(export["dreams"].count == 10_000)
            #expect(export["dreams"] == model["dreams"])

            let markdown = try client.get("/v1/export?format=markdown", token: token).text
            #expect(markdown.components(separatedBy: "\n## ").count == 10_001)
        }
    }
}
