import Foundation
import LucidHTTP
import LucidHTTPTesting
import Testing
@testable import LucidAPI
import LucidServerTesting

/// What answers tell caches: personal ones are private and asked for again, secrets are never
/// kept, versions are kept for good, and one journal's entity tags never stand for another's.
@Suite("Caching of personal answers")
struct CachingHTTPTests {
    @Test func everyPersonalAnswerIsPrivateAndVariesByAuthorizationFailuresAnd304sIncluded() throws {
        try withServer { client in
            let token = try client.register("keeper")
            let dream = try client.addDream(token, "Kept to myself")
            let list = try client.get("/v1/dreams", token: token)
            let missing = try client.get("/v1/dreams/\(UUID())", token: token)
            let unchanged = try client.get("/v1/model", token: token, headers: [("If-None-Match", list.header("ETag") ?? "")])
            #expect(unchanged.status == 304)
            let answers = [
                list, missing, unchanged, try client.get("/v1/dreams/\(dream["id"].string ?? "")", token: token),
                try client.get("/v1/me", token: token), try client.get("/v1/stats", token: token),
                try client.post("/v1/undo", token: token), try client.get("/v1/history", token: token),
            ]
            for answer in answers {
                #expect(answer.header("Cache-Control") == "private, no-cache", "\(answer.status) \(answer.text)")
                #expect(answer.header("Vary") == "Authorization")
            }
            // Open answers the same for everyone say nothing of either.
            let health = try client.get("/healthz")
            #expect(health.header("Vary") == nil && health.header("Cache-Control") == nil)
        }
    }

    @Test func answersHoldingASecretAreKeptByNoCache() throws {
        try withServer { client in
            let registered = try client.post("/v1/users", json: ["username": "secretive", "password": TestClient.password])
            let signedIn = try client.post("/v1/sessions", json: ["username": "secretive", "password": TestClient.password])
            let token = signedIn.json["token"].string ?? ""
            let id = try client.addDream(token, "Shared once")["id"].string ?? ""
            let shared = try client.post("/v1/shares", json: ["dreamIds": [id]], token: token)
            let sessions = try client.get("/v1/sessions", token: token)
            for answer in [registered, signedIn, shared, sessions] {
                #expect((200...201).contains(answer.status), "\(answer.text)")
                #expect(answer.header("Cache-Control") == "no-store")
            }
            #expect(sessions.header("Vary") == "Authorization")
        }
    }

    @Test func aVersionIsKeptForGoodByItsUsersCacheAlone() throws {
        try withServer { client in
            let token = try client.register("archivist")
            try client.addDream(token, "First")
            try client.addDream(token, "Second")
            let version = try client.get("/v1/versions/1", token: token)
            let again = try client.get("/v1/versions/1", token: token, headers: [("If-None-Match", version.header("ETag") ?? "")])
            #expect(version.status == 200 && again.status == 304)
            for answer in [version, again] {
                #expect(answer.header("Cache-Control") == "private, max-age=31536000, immutable")
                #expect(answer.header("Vary") == "Authorization")
            }
            // The current version is not: it changes.
            #expect(try client.get("/v1/versions/3", token: token).header("Cache-Control") == "private, no-cache")
        }
    }

    @Test func oneJournalsTagNeverStandsForAnothersEvenAtTheSameVersion() throws {
        try withServer { client in
            let alice = try client.register("alice"), bob = try client.register("bob")
            try client.addDream(alice, "Alice's")
            try client.addDream(bob, "Bob's")
            let aliceTag = try #require(try client.get("/v1/dreams", token: alice).header("ETag"))
            let bobTag = try #require(try client.get("/v1/dreams", token: bob).header("ETag"))
            // Both at version 1, each tag naming its own journal.
            #expect(withoutJournal(aliceTag) == "\"1\"" && withoutJournal(bobTag) == "\"1\"" && aliceTag != bobTag)

            // A cache holding alice's answer asks with her tag on bob's behalf: bob gets his own.
            let asked = try client.get("/v1/dreams", token: bob, headers: [("If-None-Match", aliceTag)])
            #expect(asked.status == 200 && asked.text.contains("Bob's") && !asked.text.contains("Alice's"))
            #expect(try client.get("/v1/dreams", token: bob, headers: [("If-None-Match", bobTag)]).status == 304)
            // A write conditional on alice's tag is not one on bob's journal.
            let guarded = try client.post("/v1/undo", token: bob, headers: [("If-Match", aliceTag)])
            expectProblem(guarded, 412, "precondition-failed")
            // The version alone, as a client that knows it writes it, still names it.
            #expect(try client.get("/v1/dreams", token: bob, headers: [("If-None-Match", "\"1\"")]).status == 304)
            #expect(try client.post("/v1/undo", token: bob, headers: [("If-Match", bobTag)]).status == 200)
            #expect(try client.post("/v1/redo", token: bob, headers: [("If-Match", "\"2\"")]).status == 200)
        }
    }
}

@Suite struct JournalTagTests {
    static let user = UUID(uuidString: "3F9A0C1D-0000-4000-8000-000000000000")!

    @Test func aTagNamesItsJournalInsideTheQuotes() {
        let journal = JournalTag(Self.user)
        #expect(journal.naming("\"12\"") == "\"12-3f9a0c1d\"")
        #expect(journal.naming(#"W/"12-markdown""#) == #"W/"12-markdown-3f9a0c1d""#)
    }

    @Test func aRequestsTagIsTakenBackToTheHandlersOrLeftOutIfItIsAnotherJournals() {
        let journal = JournalTag(Self.user)
        func tag(_ text: String, weak: Bool = false) -> EntityTag { EntityTag(isWeak: weak, opaque: Array(text.utf8)) }
        #expect(journal.unnamed(tag("12-3f9a0c1d")) == tag("12"))
        #expect(journal.unnamed(tag("12-markdown-3f9a0c1d", weak: true)) == tag("12-markdown", weak: true))
        #expect(journal.unnamed(tag("12-0badcafe")) == nil)
        // Bare tags, as a client that knows the version writes them, are taken as they are.
        #expect(journal.unnamed(tag("12")) == tag("12"))
        #expect(journal.unnamed(tag("12-markdown", weak: true)) == tag("12-markdown", weak: true))
    }

    @Test func cachingAddsWhatEachKindOfAnswerCallsFor() {
        let journal = JournalTag(Self.user)
        let answer = Response(status: 200, headers: [("ETag", "\"4\""), ("Vary", "Accept")])
        #expect(Caching.personal.applied(to: answer, journal: journal).headers.map { "\($0.name): \($0.value)" }
            == ["ETag: \"4-3f9a0c1d\"", "Vary: Accept, Authorization", "Cache-Control: private, no-cache"])
        let kept = Response(status: 200, headers: [("Cache-Control", "private, max-age=31536000, immutable")])
        #expect(Caching.personal.applied(to: kept, journal: nil).headers.map { "\($0.name): \($0.value)" }
            == ["Cache-Control: private, max-age=31536000, immutable", "Vary: Authorization"])
        let secret = Response(status: 201, headers: [("Cache-Control", "max-age=60")])
        #expect(Caching.secret.applied(to: secret, journal: journal).headers.map { "\($0.name): \($0.value)" }
            == ["Cache-Control: no-store", "Vary: Authorization"])
        #expect(Caching.shared.applied(to: answer, journal: journal).headers.map { "\($0.name): \($0.value)" }
            == ["ETag: \"4\"", "Vary: Accept"])
    }
}
