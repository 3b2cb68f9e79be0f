import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

/// An If-Match on a version the journal has left is refused for good, so its 412 is kept for
/// retries. One that names only versions the journal has not reached yet is refused for now:
/// once the journal gets there the same request succeeds, so, like any refusal that depends
/// on the journal, its 412 must not be kept, and a retry under the same key must run.
@Suite struct IdempotencyPreconditionTests {
    @Test(arguments: [#""2""#, #""0", "2""#])
    func aPreconditionOnAVersionNotYetReachedIsNotKept(_ ifMatch: String) throws {
        try withKeyedServer { client, _ in
            let token = try client.register("ahead")
            try client.addDream(token, "one")
            let early = try client.keyed("POST", "/v1/undo", key: "ahead", token: token, headers: [("If-Match", ifMatch)])
            expectProblem(early, 412, "precondition-failed")

            try client.addDream(token, "two")
            // At version 2 the request holds: sent without a key it would undo "two".
            let retry = try client.keyed("POST", "/v1/undo", key: "ahead", token: token, headers: [("If-Match", ifMatch)])
            expectJSON(retry, version: 3)
            #expect(retry.header("Idempotent-Replayed") == nil, "the 412 for a version not yet reached was kept")
            #expect(try client.model(token)["dreams"].array?.map { $0["description"].string } == ["one"])
        }
    }
}
