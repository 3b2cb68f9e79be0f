private import CSodium

/// Session tokens: shown once to the client, stored only as a hash.
public enum SessionToken {
    /// 256 random bits: enough that guessing a live token is hopeless.
    private static let byteCount = 32

    /// Base64url of 32 bytes without padding: ceil(32 × 8 / 6) characters.
    private static let encodedLength = 43

    /// A new token: 32 bytes from `randombytes_buf`, base64url without padding (43 characters).
    public static func generate() -> String {
        Sodium.ready()
        var bytes = [UInt8](repeating: 0, count: byteCount)
        randombytes_buf(&bytes, bytes.count)
        let variant = sodium_base64_VARIANT_URLSAFE_NO_PADDING
        // The encoded length includes the terminating NUL that sodium_bin2base64 writes.
        var encoded = [CChar](repeating: 0, count: sodium_base64_encoded_len(bytes.count, variant))
        _ = sodium_bin2base64(&encoded, encoded.count, bytes, bytes.count, variant)
        // The raw bytes are the secret in its densest form; do not leave them in freed memory.
        sodium_memzero(&bytes, bytes.count)
        return Sodium.string(fromNULTerminated: encoded)
    }

    /// The form a token is stored and looked up in: the hex SHA-256 (`crypto_hash_sha256`) of
    /// its UTF-8 bytes, 64 lowercase hex characters.
    ///
    /// A fast hash is right here, unlike for passwords: a token carries 256 random bits, so no
    /// dictionary or brute force can invert its hash, and a fast hash lets every request look
    /// its token up by equality without a memory-hard cost per call.
    public static func hash(_ token: String) -> String {
        Sodium.ready()
        var digest = [UInt8](repeating: 0, count: crypto_hash_sha256_bytes())
        _ = Sodium.withUTF8Bytes(of: token) { bytes, count in
            // Always 0: hashing in memory cannot fail.
            crypto_hash_sha256(&digest, bytes, UInt64(count))
        }
        var hex = [UInt8]()
        hex.reserveCapacity(digest.count * 2)
        for byte in digest {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Whether `token` has the shape `generate()` produces: 43 characters of the base64url
    /// alphabet. Lets the server refuse junk before spending a hash and a lookup on it.
    public static func isWellFormed(_ token: String) -> Bool {
        let utf8 = token.utf8
        return utf8.count == encodedLength && utf8.allSatisfy(isBase64URL)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
