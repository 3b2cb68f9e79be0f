import LucidCrypto
import Testing

/// Session tokens and their stored hashes.
@Suite struct SessionTokenTests {
    static let base64URL = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    @Test func generatedTokensHaveTheRightShape() {
        let token = SessionToken.generate()
        #expect(token.count == 43)
        #expect(token.allSatisfy(Self.base64URL.contains))
        #expect(SessionToken.isWellFormed(token))
    }

    @Test func generatedTokensAreDistinct() {
        let tokens = (0..<1_000).map { _ in SessionToken.generate() }
        #expect(Set(tokens).count == 1_000)
        #expect(tokens.allSatisfy(SessionToken.isWellFormed))
    }

    @Test(arguments: [
        Sample("empty", ""),
        Sample("42 characters", String(repeating: "A", count: 42)),
        Sample("44 characters", String(repeating: "A", count: 44)),
        Sample("padding", String(repeating: "A", count: 42) + "="),
        Sample("standard base64 +", String(repeating: "A", count: 42) + "+"),
        Sample("standard base64 /", String(repeating: "A", count: 42) + "/"),
        Sample("space", String(repeating: "A", count: 42) + " "),
        Sample("NUL", String(repeating: "A", count: 42) + "\0"),
        Sample("non-ASCII", String(repeating: "A", count: 42) + "é"),
    ])
    func malformedTokensAreRejected(_ sample: Sample) {
        #expect(!SessionToken.isWellFormed(sample.text))
    }

    @Test func hashIsLowercaseHexAndDeterministic() {
        let token = SessionToken.generate()
        let hash = SessionToken.hash(token)
        #expect(hash.count == 64)
        #expect(hash.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(SessionToken.hash(token) == hash)
        #expect(SessionToken.hash(SessionToken.generate()) != hash)
    }

    @Test func hashIsSHA256() {
        #expect(SessionToken.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SessionToken.hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
