import Foundation
import LucidHTTPTesting
import LucidServerTesting
import Testing

/// `GET /openapi.yaml` over a real socket: a strong `ETag` per form, `304` on `If-None-Match`,
/// and gzip for a client whose `Accept-Encoding` allows it.
@Suite struct OpenAPIDocumentTests {
    /// The repository's openapi.yaml, which the plain answer must be byte for byte.
    static let file: [UInt8] = {
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return Array((try? Data(contentsOf: repository.appendingPathComponent("openapi.yaml"))) ?? Data())
    }()

    static let gzip = [(name: "Accept-Encoding", value: "gzip, deflate, br")]

    /// Whether `bytes` are the file: a plain `Bool`, so a failure does not print 175 KB twice.
    static func isTheFile(_ bytes: [UInt8]) -> Bool { bytes == file }

    /// The headers every answer of the document carries, `200` and `304` alike.
    static func expectValidatorHeaders(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.header("Cache-Control") == "public, no-cache", sourceLocation: sourceLocation)
        #expect(response.header("Vary") == "Accept-Encoding", sourceLocation: sourceLocation)
    }

    @Test func thePlainAnswerHasAStrongTagOfItsBytesAndRevalidates() throws {
        try withServer { client in
            let plain = try client.get("/openapi.yaml")
            #expect(plain.status == 200)
            #expect(Self.isTheFile(plain.body))
            #expect(plain.header("Content-Type") == "application/yaml")
            #expect(plain.header("Content-Encoding") == nil)
            Self.expectValidatorHeaders(plain)
            let tag = try #require(plain.header("ETag"))
            #expect(tag.wholeMatch(of: /"[0-9a-f]{16}"/) != nil, "a strong tag of 16 hex digits: \(tag)")
            #expect(try client.get("/openapi.yaml").header("ETag") == tag, "the tag is the same every time")

            // Compared weakly, as If-None-Match is; percent-encoded as Apple's runtime sends it.
            let opaque = tag.dropFirst().dropLast()
            for condition in [tag, "W/\(tag)", "\"other\", \(tag)", "*", "%22\(opaque)%22"] {
                let revalidated = try client.get("/openapi.yaml", headers: [("If-None-Match", condition)])
                #expect(revalidated.status == 304, "\(condition)")
                #expect(revalidated.body.isEmpty)
                #expect(revalidated.header("ETag") == tag, "\(condition)")
                Self.expectValidatorHeaders(revalidated)
            }
            for condition in ["\"other\"", "\"\(opaque.dropLast())\"", "not a tag"] {
                let changed = try client.get("/openapi.yaml", headers: [("If-None-Match", condition)])
                #expect(changed.status == 200, "\(condition)")
                #expect(Self.isTheFile(changed.body), "\(condition)")
            }
        }
    }

    @Test func theGzipAnswerDecompressesToExactlyThePlainBytes() throws {
        try withServer { client in
            let plain = try client.get("/openapi.yaml")
            let gzipped = try client.get("/openapi.yaml", headers: Self.gzip)
            #expect(gzipped.status == 200)
            #expect(gzipped.header("Content-Encoding") == "gzip")
            #expect(gzipped.header("Content-Type") == "application/yaml")
            Self.expectValidatorHeaders(gzipped)
            #expect(gzipped.body.starts(with: [0x1F, 0x8B]), "a gzip member's magic bytes")
            #expect(gzipped.body.count < plain.body.count / 4, "YAML compresses well: \(gzipped.body.count) bytes")
            #expect(Self.isTheFile(try Gunzip.decompress(gzipped.body)))
            let sameAgain = try client.get("/openapi.yaml", headers: Self.gzip).body == gzipped.body
            #expect(sameAgain, "compressed once: the same bytes every time")

            let plainTag = try #require(plain.header("ETag"))
            let gzipTag = try #require(gzipped.header("ETag"))
            #expect(gzipTag.wholeMatch(of: /"[0-9a-f]{16}-gzip"/) != nil, "a strong tag of its own: \(gzipTag)")
            #expect(gzipTag != plainTag)

            // HEAD: the gzip form's head, its length counted, no body.
            let head = try client.head("/openapi.yaml", headers: Self.gzip)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            for name in ["Content-Type", "Content-Encoding", "Content-Length", "ETag", "Cache-Control", "Vary"] {
                #expect(head.header(name) == gzipped.header(name), "\(name)")
            }
            #expect(head.header("Content-Length") == "\(gzipped.body.count)")
        }
    }

    /// RFC 9110 12.5.3: the coding with the highest weight, gzip on a tie; `q=0` refuses;
    /// `*` stands for every coding not listed; identity is acceptable unless refused, and
    /// sent anyway when everything is refused; no field, or an empty one, means identity.
    @Test(arguments: [
        (nil, false), ("gzip", true), ("GZIP", true), ("x-gzip", true), ("gzip;q=0", false), ("gzip; q=0.000", false),
        ("*", true), ("*;q=0", false), ("gzip;q=0, *", false), ("identity", false), ("", false), ("br, deflate", false),
        ("identity;q=0.5, gzip;q=0.6", true), ("gzip;q=0.5, identity", false), ("gzip;q=0.5, identity;q=0.5", true),
        ("identity;q=0", false), ("identity;q=0, gzip;q=0.001", true), ("gzip;q=2", false), ("gzip;level=9", false),
        ("br;q=1.0, gzip;Q=0.8, *;q=0.1", true),
    ] as [(String?, Bool)])
    func theWeightsOfAcceptEncodingChooseTheForm(_ field: String?, _ gzipped: Bool) throws {
        try withServer { client in
            let plainTag = try #require(try client.get("/openapi.yaml").header("ETag"))
            let gzipTag = try #require(try client.get("/openapi.yaml", headers: Self.gzip).header("ETag"))
            let response = try client.get("/openapi.yaml", headers: field.map { [("Accept-Encoding", $0)] } ?? [])
            #expect(response.status == 200)
            #expect(response.header("Content-Encoding") == (gzipped ? "gzip" : nil))
            #expect(response.header("ETag") == (gzipped ? gzipTag : plainTag))
            #expect(Self.isTheFile(gzipped ? try Gunzip.decompress(response.body) : response.body))
            Self.expectValidatorHeaders(response)
        }
    }

    @Test func severalAcceptEncodingFieldsAreReadAsOneList() throws {
        try withServer { client in
            let response = try client.get(
                "/openapi.yaml", headers: [("Accept-Encoding", "identity;q=0.1"), ("Accept-Encoding", "gzip")])
            #expect(response.header("Content-Encoding") == "gzip")
        }
    }

    @Test func eachFormRevalidatesOnlyWithItsOwnTag() throws {
        try withServer { client in
            let plainTag = try #require(try client.get("/openapi.yaml").header("ETag"))
            let gzipTag = try #require(try client.get("/openapi.yaml", headers: Self.gzip).header("ETag"))

            let plainWithGzipTag = try client.get("/openapi.yaml", headers: [("If-None-Match", gzipTag)])
            #expect(plainWithGzipTag.status == 200)
            #expect(plainWithGzipTag.header("ETag") == plainTag)
            #expect(Self.isTheFile(plainWithGzipTag.body))

            let gzipWithPlainTag = try client.get("/openapi.yaml", headers: Self.gzip + [("If-None-Match", plainTag)])
            #expect(gzipWithPlainTag.status == 200)
            #expect(gzipWithPlainTag.header("ETag") == gzipTag)
            #expect(Self.isTheFile(try Gunzip.decompress(gzipWithPlainTag.body)))

            let gzipWithItsTag = try client.get("/openapi.yaml", headers: Self.gzip + [("If-None-Match", gzipTag)])
            #expect(gzipWithItsTag.status == 304)
            #expect(gzipWithItsTag.header("ETag") == gzipTag)
            Self.expectValidatorHeaders(gzipWithItsTag)

            // A cache that holds both forms lists both tags; the answer names the one it has.
            let both = [("If-None-Match", "\(plainTag), \(gzipTag)")]
            let plainWithBoth = try client.get("/openapi.yaml", headers: both)
            #expect(plainWithBoth.status == 304)
            #expect(plainWithBoth.header("ETag") == plainTag)
            let gzipWithBoth = try client.get("/openapi.yaml", headers: Self.gzip + both)
            #expect(gzipWithBoth.status == 304)
            #expect(gzipWithBoth.header("ETag") == gzipTag)
        }
    }

    /// With CORS on, `Origin` joins `Accept-Encoding` in the one `Vary` field.
    @Test func withCORSOnVaryNamesBothHeaders() throws {
        try CORSHTTPTests.withServer { client in
            for headers in [[], Self.gzip, [("Origin", CORSHTTPTests.app)]] {
                let response = try client.get("/openapi.yaml", headers: headers)
                #expect(response.header("Vary") == "Accept-Encoding, Origin", "\(headers)")
            }
        }
    }
}
