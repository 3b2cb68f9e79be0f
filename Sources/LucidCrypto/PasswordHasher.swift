private import CSodium

/// Memory-hard password hashing: argon2id through libsodium's `crypto_pwhash_str` (salted,
/// self-describing `"$argon2id$v=19$m=…,t=…,p=…$…"` strings).
///
/// The string carries its salt and parameters, so one column stores everything `verify`
/// needs, and `needsRehash` can tell when a stored hash predates the current cost.
public struct PasswordHasher: Sendable {
    /// How much time and memory one hash spends.
    public enum Cost: Sendable {
        /// libsodium's interactive limits (`OPSLIMIT_INTERACTIVE`, `MEMLIMIT_INTERACTIVE`:
        /// 2 passes over 64 MiB): the production setting for logins.
        case interactive
        /// libsodium's moderate limits (3 passes over 256 MiB): slower, for when that is affordable.
        case moderate
        /// libsodium's minimum limits (1 pass over 8 KiB). Not memory-hard at all: only for
        /// tests, which would otherwise spend seconds and gigabytes; never use it in production.
        case minimum
    }

    /// The cost this hasher hashes with, and that `needsRehash` compares against.
    private let cost: Cost

    /// A hasher that hashes with `cost`.
    public init(cost: Cost = .interactive) {
        self.cost = cost
    }

    /// Hashes `password` with a fresh random salt and returns the self-describing string.
    ///
    /// The password's UTF-8 bytes go to libsodium with their exact length, so a password
    /// containing NUL is hashed whole rather than cut at the first NUL.
    public func hash(_ password: String) throws(CryptoError) -> String {
        Sodium.ready()
        guard password.utf8.count <= crypto_pwhash_passwd_max() else { throw .passwordTooLong }
        let limits = cost.limits
        var output = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
        let status = Sodium.withUTF8Chars(of: password) { chars, count in
            crypto_pwhash_str(&output, chars, UInt64(count), limits.ops, limits.memory)
        }
        guard status == 0 else { throw .outOfMemory }
        return Sodium.string(fromNULTerminated: output)
    }

    /// Whether `password` matches `hash`, in constant time with respect to the hash.
    ///
    /// Returns `false` for a malformed hash rather than trapping. The parameters inside the
    /// string decide the work done, so verify only hashes this server stored, never ones a
    /// client supplied.
    ///
    /// Throws `.outOfMemory` when the memory the hash asks for cannot be allocated: that says
    /// nothing about the password, so the caller must not treat it as a mismatch. Every string
    /// `hash(_:)` writes is recomputed here with `crypto_pwhash_argon2id`, which fails only
    /// for that reason (see `Argon2idString`). Any other string libsodium accepts (several
    /// lanes, another salt length) goes to `crypto_pwhash_str_verify`, which cannot tell the
    /// two failures apart; this server never stores such a string.
    public func verify(_ password: String, against hash: String) throws(CryptoError) -> Bool {
        Sodium.ready()
        guard let parts = Argon2idString(parsing: hash), parts.isComputable else { return Self.libsodiumVerify(password, hash) }
        guard password.utf8.count <= crypto_pwhash_argon2id_passwd_max() else { return false }
        var computed = [UInt8](repeating: 0, count: parts.digest.count)
        // Secrets derived from the password do not stay in freed memory.
        defer { sodium_memzero(&computed, computed.count) }
        let status = Sodium.withUTF8Chars(of: password) { chars, count in
            crypto_pwhash_argon2id(
                &computed, UInt64(computed.count), chars, UInt64(count), parts.salt,
                UInt64(parts.passes), Int(parts.memoryKiB) * 1024, crypto_pwhash_argon2id_alg_argon2id13())
        }
        // Every parameter was checked against libsodium's limits: -1 is a failed allocation.
        guard status == 0 else { throw .outOfMemory }
        return sodium_memcmp(computed, parts.digest, computed.count) == 0
    }

    /// libsodium's own check, for a hash `verify` cannot recompute itself: `false` for any
    /// failure, a mismatch or otherwise.
    private static func libsodiumVerify(_ password: String, _ hash: String) -> Bool {
        guard let stored = Sodium.passwordHashBuffer(hash) else { return false }
        let status = Sodium.withUTF8Chars(of: password) { chars, count in
            crypto_pwhash_str_verify(stored, chars, UInt64(count))
        }
        return status == 0
    }

    /// A string shaped exactly like `hash(_:)`'s at this hasher's cost, with a random salt and
    /// a random digest that no password matches (a 2^-256 chance). Verifying against it costs
    /// what verifying a real hash of this cost does, so an unknown username takes as long to
    /// refuse as a wrong password; making it costs no hashing at all.
    public func decoy() -> String {
        Sodium.ready()
        let limits = cost.limits
        return Argon2idString(
            memoryKiB: UInt32(limits.memory / 1024), passes: UInt32(limits.ops), lanes: 1,
            salt: Sodium.randomBytes(crypto_pwhash_argon2id_saltbytes()),
            digest: Sodium.randomBytes(Self.digestLength)
        ).encoded
    }

    /// The digest length `crypto_pwhash_str` writes (`crypto_pwhash_STRHASHBYTES` in libsodium's
    /// source; not exported, but fixed by the string format it has always written).
    static let digestLength = 32

    /// Whether `hash` was made with parameters other than this hasher's cost, so the caller
    /// should hash the password again after a successful `verify`.
    ///
    /// A malformed hash also answers `true`: it is certainly not what this hasher would store.
    public func needsRehash(_ hash: String) -> Bool {
        Sodium.ready()
        guard let stored = Sodium.passwordHashBuffer(hash) else { return true }
        let limits = cost.limits
        // 0: matches the limits; 1: different limits; -1: not a hash libsodium can parse.
        return crypto_pwhash_str_needs_rehash(stored, limits.ops, limits.memory) != 0
    }
}

extension PasswordHasher.Cost {
    /// libsodium's operations and memory limits for this cost, read from the library so they
    /// follow its documented values rather than copies of them.
    fileprivate var limits: (ops: UInt64, memory: Int) {
        switch self {
        case .interactive:
            (UInt64(crypto_pwhash_opslimit_interactive()), crypto_pwhash_memlimit_interactive())
        case .moderate:
            (UInt64(crypto_pwhash_opslimit_moderate()), crypto_pwhash_memlimit_moderate())
        case .minimum:
            (UInt64(crypto_pwhash_opslimit_min()), crypto_pwhash_memlimit_min())
        }
    }
}
