import Foundation
import LucidCrypto
import Testing

/// argon2id hashing. Everything runs at `.minimum` cost except the one test that checks the
/// production cost really is memory-hard.
@Suite struct PasswordHasherTests {
    let hasher = PasswordHasher(cost: .minimum)

    @Test func hashThenVerifySucceeds() throws {
        let hash = try hasher.hash("correct horse battery staple")
        #expect(try hasher.verify("correct horse battery staple", against: hash))
    }

    @Test func wrongPasswordFails() throws {
        let hash = try hasher.hash("correct horse battery staple")
        #expect(try !hasher.verify("correct horse battery stapler", against: hash))
        #expect(try !hasher.verify("", against: hash))
    }

    @Test func bytesAfterNULCount() throws {
        let hash = try hasher.hash("secret\0one")
        #expect(try hasher.verify("secret\0one", against: hash))
        #expect(try !hasher.verify("secret\0two", against: hash))
        #expect(try !hasher.verify("secret", against: hash))
    }

    @Test(arguments: [
        Sample("empty", ""),
        Sample("1,024 characters", String(repeating: "x", count: 1_024)),
        Sample("non-ASCII", "rêve lucide: 夢 🌙"),
    ])
    func unusualPasswordsRoundTrip(_ sample: Sample) throws {
        let hash = try hasher.hash(sample.text)
        #expect(try hasher.verify(sample.text, against: hash))
        #expect(try !hasher.verify(sample.text + "!", against: hash))
    }

    @Test func hashesAreSaltedAndArgon2id() throws {
        let first = try hasher.hash("same password")
        let second = try hasher.hash("same password")
        #expect(first != second)
        #expect(first.hasPrefix("$argon2id$"))
        #expect(second.hasPrefix("$argon2id$"))
        #expect(try hasher.verify("same password", against: first))
        #expect(try hasher.verify("same password", against: second))
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
            #expect(try !hasher.verify("pw", against: text), "verified against \(text.debugDescription)")
        }
    }

    /// Whether the kernel refuses an allocation larger than RAM and swap together: true unless
    /// `vm.overcommit_memory` is 1, where the 4 TiB below would be granted and then faulted in.
    static var refusesHugeAllocations: Bool {
        let mode = (try? String(contentsOfFile: "/proc/sys/vm/overcommit_memory", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return mode == "0" || mode == "2"
    }

    @Test(.enabled(if: refusesHugeAllocations, "vm.overcommit_memory = 1 would grant the 4 TiB"))
    func memoryThatCannotBeAllocatedThrowsInsteadOfMismatching() throws {
        // A well-formed hash asking for the most memory the format allows, 2^32 - 1 KiB (4 TiB):
        // no machine this runs on has that much RAM and swap, so the allocation always fails.
        let real = try hasher.hash("pw")
        let huge = real.replacingOccurrences(of: "$m=8,", with: "$m=4294967295,")
        #expect(huge != real)
        #expect(throws: CryptoError.outOfMemory) { try hasher.verify("pw", against: huge) }
        #expect(throws: CryptoError.outOfMemory) { try hasher.verify("wrong", against: huge) }
        // The same hash at its real cost still answers, so nothing was left broken.
        #expect(try hasher.verify("pw", against: real))
    }

    @Test func needsRehashComparesCost() throws {
        let hash = try hasher.hash("pw")
        #expect(PasswordHasher(cost: .interactive).needsRehash(hash))
        #expect(!hasher.needsRehash(hash))
        #expect(hasher.needsRehash("garbage"))
    }
}
