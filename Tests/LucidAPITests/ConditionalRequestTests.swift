import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

/// If-Match compares strongly and If-None-Match weakly (RFC 9110 13.1.1, 13.1.2); a tag
/// names a version only as the server writes it.
@Suite struct ConditionalRequestTests {
    @Test func ifMatchTagsThatNameNoVersionAre412AndChangeNothing() throws {
        try withServer { client in
            let token = try client.register("strong")
            let id = try #require(try client.addDream(token, "Original")["id"].string)
            let model = try client.model(token)
            for tag in [#"W/"1""#, #""+1""#, #""01""#, #""001""#, #""1.0""#, #""a,b""#, #""""#, #"W/"1", "+1""#,
                        #""99999999999999999999""#] {
                let headers = [(name: "If-Match", value: tag)]
                for response in [
                    try client.patch("/v1/dreams/\(id)", json: ["description": "Changed"], token: token, headers: headers),
                    try client.delete("/v1/dreams/\(id)", token: token, headers: headers),
                    try client.post("/v1/undo", token: token, headers: headers),
                    try client.post("/v1/actions", json: ["actions": [["type": "deleteDream", "id": id]]], token: token,
                                    headers: headers),
                ] {
                    expectProblem(response, 412, "precondition-failed")
                    #expect(withoutJournal(response.header("ETag")) == "\"1\"", "\(tag)")
                }
            }
            #expect(try client.model(token) == model)

            // A strong tag beside weak and foreign ones still matches; empty list elements are ignored.
            let mixed = try client.patch("/v1/dreams/\(id)", json: ["description": "Mixed"], token: token,
                                         headers: [("If-Match", #"W/"1", "x", , "1""#)])
            expectJSON(mixed, version: 2)
        }
    }

    /// Apple's OpenAPI runtime percent-encodes header values: `"2"` arrives as `%222%22`.
    @Test func percentEncodedEntityTagsMeanWhatThePlainOnesDo() throws {
        try withServer { client in
            let token = try client.register("encoded")
            let id = try #require(try client.addDream(token, "Original")["id"].string)
            let stale = try client.patch(
                "/v1/dreams/\(id)", json: ["description": "Late"], token: token, headers: [("If-Match", "%220%22")])
            expectProblem(stale, 412, "precondition-failed")
            let current = try client.patch(
                "/v1/dreams/\(id)", json: ["description": "On time"], token: token, headers: [("If-Match", "%221%22")])
            expectJSON(current, version: 2)
            expectJSON(try client.post("/v1/undo", token: token, headers: [("If-Match", "%2A")]), version: 3)
            for tag in ["%223%22", "W%2F%223%22", "%2A", "%221%22%2C%20%223%22"] {
                #expect(try client.get("/v1/model", token: token, headers: [("If-None-Match", tag)]).status == 304, "\(tag)")
            }
            expectJSON(try client.get("/v1/model", token: token, headers: [("If-None-Match", "%222%22")]), version: 3)
        }
    }

    @Test func ifMatchThatIsNotAListOfEntityTagsIs400() throws {
        try withServer { client in
            let token = try client.register("syntax")
            let id = try #require(try client.addDream(token, "Original")["id"].string)
            for field in ["1", #""1"#, #""1" "2""#, #"*, "1""#, "w/\"1\"", "\"a b\""] {
                let response = try client.patch("/v1/dreams/\(id)", json: ["description": "No"], token: token,
                                                headers: [("If-Match", field)])
                expectProblem(response, 400, "bad-request")
            }
            #expect(try client.model(token)["version"].int == 1)
        }
    }

    @Test func ifNoneMatchComparesWeaklyAndOnlyCanonicalVersions() throws {
        try withServer { client in
            let token = try client.register("weak")
            try client.addDream(token, "Cached")
            for tag in [#"W/"1""#, #""x", W/"1""#, #""1",,"#] {
                #expect(try client.get("/v1/model", token: token, headers: [("If-None-Match", tag)]).status == 304, "\(tag)")
            }
            for tag in [#""01""#, #"W/"+1""#, #""1"#, #""0" "1""#, #"W/"0""#] {
                expectJSON(try client.get("/v1/model", token: token, headers: [("If-None-Match", tag)]), version: 1)
            }
        }
    }
}
