private import CSodium

/// SHA-256 (libsodium's `crypto_hash_sha256`) of a sequence of byte strings, each preceded by
/// its length, so that no two different sequences hash alike by moving bytes from one part
/// to the next (`["ab", "c"]` and `["a", "bc"]` differ).
///
/// For fingerprints of requests, not for secrets: a password never goes through it.
public enum Digest {
    /// The 32-byte digest of `parts`.
    public static func sha256(_ parts: [[UInt8]]) -> [UInt8] {
        Sodium.ready()
        var state = crypto_hash_sha256_state()
        crypto_hash_sha256_init(&state)
        for part in parts {
            var length = UInt64(part.count).bigEndian
            withUnsafeBytes(of: &length) { bytes in
                _ = crypto_hash_sha256_update(&state, bytes.bindMemory(to: UInt8.self).baseAddress, UInt64(bytes.count))
            }
            // Always 0: hashing in memory cannot fail.
            _ = part.withUnsafeBufferPointer { crypto_hash_sha256_update(&state, $0.baseAddress, UInt64($0.count)) }
        }
        var digest = [UInt8](repeating: 0, count: crypto_hash_sha256_bytes())
        crypto_hash_sha256_final(&state, &digest)
        return digest
    }
}
