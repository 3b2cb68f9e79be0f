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
    public func verify(_ password: String, against hash: String) -> Bool {
        Sodium.ready()
        guard let stored = Sodium.passwordHashBuffer(hash) else { return false }
        let status = Sodium.withUTF8Chars(of: password) { chars, count in
            crypto_pwhash_str_verify(stored, chars, UInt64(count))
        }
        return status == 0
    }

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
