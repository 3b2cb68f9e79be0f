private import CSodium

/// The parts of a self-describing argon2id string as `crypto_pwhash_str` writes it:
/// `$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<digest>`, salt and digest in
/// standard base64 without padding.
///
/// `PasswordHasher.verify` reads the string itself rather than handing it to
/// `crypto_pwhash_str_verify`, because libsodium 1.0.18 (Debian 12's) answers -1 with
/// `errno == EINVAL` both for a wrong password and for a failure to allocate the hash's
/// memory (`argon2_verify` turns every error of `argon2_hash` into
/// `ARGON2_VERIFY_MISMATCH`; upstream fixed it in 3de0b3cd, after 1.0.18). Recomputing the
/// digest with `crypto_pwhash_argon2id` and comparing it here keeps the two apart.
struct Argon2idString: Hashable, Sendable {
    /// Memory cost in KiB (`m`).
    var memoryKiB: UInt32
    /// Passes over the memory (`t`).
    var passes: UInt32
    /// Lanes (`p`); libsodium itself only ever writes 1.
    var lanes: UInt32
    var salt: [UInt8]
    var digest: [UInt8]

    /// The only argon2 version libsodium writes and reads (0x13).
    private static let version = "v=19"

    /// The parts of `text`, or `nil` unless it has exactly the shape above: decimal numbers
    /// without sign or leading zeros, base64 that decodes whole, nothing after the digest.
    init?(parsing text: String) {
        let fields = text.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].isEmpty, fields[1] == "argon2id", fields[2] == Self.version else { return nil }
        let costs = fields[3].split(separator: ",", omittingEmptySubsequences: false)
        guard costs.count == 3,
              let memory = Self.decimal(costs[0], after: "m="),
              let passes = Self.decimal(costs[1], after: "t="),
              let lanes = Self.decimal(costs[2], after: "p="),
              let salt = Sodium.base64Decoded(String(fields[4])),
              let digest = Sodium.base64Decoded(String(fields[5]))
        else { return nil }
        self.init(memoryKiB: memory, passes: passes, lanes: lanes, salt: salt, digest: digest)
    }

    init(memoryKiB: UInt32, passes: UInt32, lanes: UInt32, salt: [UInt8], digest: [UInt8]) {
        self.memoryKiB = memoryKiB
        self.passes = passes
        self.lanes = lanes
        self.salt = salt
        self.digest = digest
    }

    /// The string form, exactly as `crypto_pwhash_str` would write these parts.
    var encoded: String {
        "$argon2id$\(Self.version)$m=\(memoryKiB),t=\(passes),p=\(lanes)$"
            + Sodium.base64Encoded(salt) + "$" + Sodium.base64Encoded(digest)
    }

    /// Whether `crypto_pwhash_argon2id` can recompute this digest: one lane, libsodium's salt
    /// length, and every limit within what that function accepts. Then its only way to fail
    /// is running out of memory.
    var isComputable: Bool {
        let memoryBytes = UInt64(memoryKiB) * 1024
        return lanes == 1
            && salt.count == crypto_pwhash_argon2id_saltbytes()
            && UInt64(digest.count) >= UInt64(crypto_pwhash_argon2id_bytes_min())
            && UInt64(digest.count) <= UInt64(crypto_pwhash_argon2id_bytes_max())
            && UInt64(passes) >= UInt64(crypto_pwhash_argon2id_opslimit_min())
            && UInt64(passes) <= UInt64(crypto_pwhash_argon2id_opslimit_max())
            && memoryBytes >= UInt64(crypto_pwhash_argon2id_memlimit_min())
            && memoryBytes <= UInt64(crypto_pwhash_argon2id_memlimit_max())
    }

    /// The number after `prefix`, as libsodium's `decode_decimal` reads it: digits only, no
    /// leading zero, within `UInt32`. (Swift's `UInt32("+5")` would accept a sign.)
    private static func decimal(_ field: Substring, after prefix: String) -> UInt32? {
        guard field.hasPrefix(prefix) else { return nil }
        let digits = field.dropFirst(prefix.count).utf8
        guard let first = digits.first, digits.allSatisfy({ (0x30...0x39).contains($0) }),
              first != 0x30 || digits.count == 1
        else { return nil }
        return UInt32(String(decoding: digits, as: UTF8.self))
    }
}
