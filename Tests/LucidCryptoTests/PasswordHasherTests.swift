import LucidCrypto
import Testing

/// argon2id hashing. Everything runs at `.minimum` cost except the one test that checks the
/// production cost really is memory-hard.
@Suite struct PasswordHasherTests {
    let hasher = PasswordHasher(cost: .minimum)

    @Test func hashThenVerifySucceeds() throws {
        let hash = try hasher.hash("correct horse battery staple")
        #expect(hasher.verify("correct horse battery staple", against: hash))
    }

    @Test func wrongPasswordFails() throws {
        let hash = try hasher.hash("correct horse battery staple")
        #expect(!hasher.verify("correct horse battery stapler", against: hash))
        #expect(!hasher.verify("", against: hash))
    }

    @Test func bytesAfterNULCount() throws {
        let hash = try hasher.hash("secret\0one")
        #expect(hasher.verify("secret\0one", against: hash))
        #expect(!hasher.verify("secret\0two", against: hash))
        #expect(!hasher.verify("secret", against: hash))
    }

    @Test(arguments: [
        Sample("empty", ""),
        Sample("1,024 characters", String(repeating: "x", count: 1_024)),
        Sample("non-ASCII", "rêve lucide: 夢 🌙"),
    ])
    func unusualPasswordsRoundTrip(_ sample: Sample) throws {
        let hash = try hasher.hash(sample.text)
        #expect(hasher.verify(sample.text, against: hash))
        #expect(!hasher.verify(sample.text + "!", against: hash))
    }

    @Test func hashesAreSaltedAndArgon2id() throws {
        let first = try hasher.hash("same password")
        let second = try hasher.hash("same password")
        #expect(first != second)
        #expect(first.hasPrefix("$argon2id$"))
        #expect(second.hasPrefix("$argon2id$"))
        #expect(hasher.verify("same password", against: first))
        #expect(hasher.verify("same password", against: second))
    }

    @Test func interactiveCostIsMemoryHard() throws {
        let hash = try PasswordHasher(cost: .interactive).hash("production")
        #expect(hash.hasPrefix("$argon2id$v=19$m=65536,"))
        #expect(hash.contains("m=65536"))
    }

    @Test func verifyAgainstGarbageIsFalse() throws {
        let valid = try hasher.hash("pw")
        var garbage = [
            "",
            "$argon2id$",
            "$argon2id$v=19$",
            "$argon2id$v=19$m=8,t=1,p=1$",
            "$argon2i$v=19$m=8,t=1,p=1$AAAA$AAAA",
            "not a hash at all",
            String(valid.dropLast(5)),
            String(valid.prefix(20)) + "\0" + String(valid.dropFirst(21)),
            valid + "\0",
            valid + String(repeating: "A", count: 200),
            String(repeating: "$", count: 127),
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let length = Int.random(in: 0...160, using: &generator)
            let scalars = (0..<length).map { _ in
                Character(Unicode.Scalar(UInt8.random(in: 1...126, using: &generator)))
            }
            garbage.append(String(scalars))
        }
        for text in garbage {
            #expect(!hasher.verify("pw", against: text), "verified against \(text.debugDescription)")
        }
    }

    @Test func needsRehashComparesCost() throws {
        let hash = try hasher.hash("pw")
        #expect(PasswordHasher(cost: .interactive).needsRehash(hash))
        #expect(!hasher.needsRehash(hash))
        #expect(hasher.needsRehash("garbage"))
    }
}
