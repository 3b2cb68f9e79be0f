@testable import LucidHTTP
import LucidHTTPTesting
import Testing

/// The zlib wrapper makes one gzip member that the system's `gzip -d` reads back exactly.
@Suite struct GzipTests {
    /// Bytes that do not compress (a linear congruential sequence), then bytes that do.
    static let mixed: [UInt8] = {
        var state: UInt32 = 12345
        let noise = (0..<70_000).map { _ -> UInt8 in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        return noise + Array(String(repeating: "a dream of the sea, ", count: 5000).utf8)
    }()

    @Test(arguments: [[], Array("x".utf8), Array("openapi: 3.1.0\n".utf8), mixed])
    func gzipDecompressesToTheSameBytes(_ bytes: [UInt8]) throws {
        let compressed = try #require(Gzip.compress(bytes))
        // The magic, deflate, no flags, no time: a fixed header, so equal bytes compress equally.
        #expect(Array(compressed.prefix(8)) == [0x1F, 0x8B, 8, 0, 0, 0, 0, 0])
        let roundTrip = try Gunzip.decompress(compressed) == bytes
        #expect(roundTrip)
        #expect(Gzip.compress(bytes) == compressed)
    }

    @Test func repetitiveTextShrinks() throws {
        let text = Array(String(repeating: "a dream of the sea, ", count: 5000).utf8)
        let compressed = try #require(Gzip.compress(text))
        #expect(compressed.count < text.count / 50)
    }
}
