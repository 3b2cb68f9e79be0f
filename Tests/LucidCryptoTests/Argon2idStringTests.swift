import Testing
@testable import LucidCrypto

/// The argon2id string as `verify` reads it and `decoy` writes it: whole values, both ways.
@Suite struct Argon2idStringTests {
    @Test func aRealHashReadsAsItsPartsAndWritesBackTheSame() throws {
        let hash = try PasswordHasher(cost: .minimum).hash("pw")
        let parts = try #require(Argon2idString(parsing: hash))
        // libsodium's minimum cost: 8 KiB, one pass, one lane; 16 bytes of salt, 32 of digest.
        var expected = Argon2idString(memoryKiB: 8, passes: 1, lanes: 1, salt: parts.salt, digest: parts.digest)
        #expect(parts == expected)
        #expect(parts.salt.count == 16 && parts.digest.count == 32)
        #expect(parts.encoded == hash)
        #expect(parts.isComputable)
        expected.lanes = 2
        #expect(!expected.isComputable)
    }

    @Test func theExactShapeIsRequired() throws {
        let good = try PasswordHasher(cost: .minimum).hash("pw")
        let fields = good.split(separator: "$", omittingEmptySubsequences: false)
        let tail = "$\(fields[4])$\(fields[5])"
        #expect(Argon2idString(parsing: "$argon2id$v=19$m=8,t=1,p=1" + tail) != nil)
        let refused = [
            "$argon2id$v=19$m=08,t=1,p=1" + tail,  // leading zero
            "$argon2id$v=19$m=+8,t=1,p=1" + tail,  // sign
            "$argon2id$v=19$m=4294967296,t=1,p=1" + tail,  // over UInt32
            "$argon2id$v=19$m=8,t=1" + tail,
            "$argon2id$v=19$t=1,m=8,p=1" + tail,
            "$argon2id$v=16$m=8,t=1,p=1" + tail,
            "$argon2i$v=19$m=8,t=1,p=1" + tail,
            "$argon2id$v=19$m=8,t=1,p=1" + tail + "$",
            "$argon2id$v=19$m=8,t=1,p=1" + tail + "=",
            "$argon2id$v=19$m=8,t=1,p=1" + tail + "!",
            "argon2id$v=19$m=8,t=1,p=1" + tail,
            "",
        ]
        for text in refused {
            #expect(Argon2idString(parsing: text) == nil, "read \(text)")
        }
    }

    @Test func aDecoyHasTheShapeAndCostOfARealHash() throws {
        for cost in [PasswordHasher.Cost.minimum, .interactive] {
            let hasher = PasswordHasher(cost: cost)
            let decoy = try #require(Argon2idString(parsing: hasher.decoy()))
            let real = try #require(Argon2idString(parsing: try hasher.hash("pw")))
            var expected = real
            expected.salt = decoy.salt
            expected.digest = decoy.digest
            #expect(decoy == expected)
            #expect(decoy.salt.count == real.salt.count && decoy.digest.count == real.digest.count)
            #expect(!hasher.needsRehash(decoy.encoded))
        }
        let hasher = PasswordHasher(cost: .minimum)
        #expect(hasher.decoy() != hasher.decoy())
        #expect(try !hasher.verify("", against: hasher.decoy()))
    }
}
