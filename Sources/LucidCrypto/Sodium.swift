private import CSodium

/// The module's single door to libsodium's set-up and to the C memory its calls borrow.
///
/// Every public entry point calls `ready()` first; the helpers lend Swift bytes to C for
/// the length of one call and bring C output back as Swift values.
enum Sodium {
    /// Runs `sodium_init()` once, on first use. Swift initializes a global or static `let`
    /// lazily under `swift_once`, so concurrent first callers cannot race or run it twice.
    private static let initialized: Void = {
        // 0: initialized now; 1: already initialized (another library in the process did it);
        // -1: failure.
        if sodium_init() < 0 {
            // The one deliberate trap in this module. libsodium fails here only when it cannot
            // set up its random source; without it no salt or token would be unpredictable,
            // and no caller could recover from an error it cannot act on, so stop loudly.
            fatalError("LucidCrypto: sodium_init() failed; libsodium has no secure random source, so passwords and tokens cannot be handled safely")
        }
    }()

    /// Makes sure libsodium is initialized before the caller's first C call.
    static func ready() {
        _ = initialized
    }

    /// Lends `text`'s UTF-8 bytes to `body` with their exact count. The count, not a NUL,
    /// marks the end: a secret that contains NUL is passed whole, where a C string would
    /// stop at the first one.
    static func withUTF8Bytes<R>(of text: String, _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
        // `withUTF8` is mutating because it may first make a bridged or non-contiguous
        // string native; the copy keeps the caller's value untouched.
        var text = text
        return text.withUTF8 { bytes in
            // The pointer lives only inside this closure. libsodium reads it during the call
            // and keeps no reference, so nothing outlives the borrow.
            if let base = bytes.baseAddress {
                return body(base, bytes.count)
            }
            // An empty buffer may have no address, but libsodium declares its inputs nonnull:
            // lend a valid location with a count of 0, which C never reads.
            let empty: UInt8 = 0
            return withUnsafePointer(to: empty) { body($0, 0) }
        }
    }

    /// Like `withUTF8Bytes(of:_:)`, for C parameters declared `const char *`.
    static func withUTF8Chars<R>(of text: String, _ body: (UnsafePointer<CChar>, Int) -> R) -> R {
        withUTF8Bytes(of: text) { bytes, count in
            // CChar and UInt8 share size and alignment; rebinding (not casting) keeps Swift's
            // typed-memory rules, and the binding ends with the closure, before C returns.
            bytes.withMemoryRebound(to: CChar.self, capacity: count) { body($0, count) }
        }
    }

    /// Copies a stored password hash into the zero-filled `crypto_pwhash_STRBYTES` buffer that
    /// libsodium's `*_str_*` functions read as a C string, so a NUL is always within bounds.
    ///
    /// Returns `nil` for a string C would misread: too long to fit with its NUL, or holding a
    /// NUL of its own (C would see only the part before it).
    static func passwordHashBuffer(_ hash: String) -> [CChar]? {
        let capacity = crypto_pwhash_strbytes()
        let utf8 = hash.utf8
        guard utf8.count < capacity, !utf8.contains(0) else { return nil }
        var buffer = [CChar](repeating: 0, count: capacity)
        for (index, byte) in utf8.enumerated() {
            buffer[index] = CChar(bitPattern: byte)
        }
        return buffer
    }

    /// `bytes` in standard base64 without padding, as argon2 strings carry salts and digests.
    static func base64Encoded(_ bytes: [UInt8]) -> String {
        let variant = sodium_base64_VARIANT_ORIGINAL_NO_PADDING
        // The encoded length includes the terminating NUL that sodium_bin2base64 writes.
        var encoded = [CChar](repeating: 0, count: sodium_base64_encoded_len(bytes.count, variant))
        _ = sodium_bin2base64(&encoded, encoded.count, bytes, bytes.count, variant)
        return string(fromNULTerminated: encoded)
    }

    /// The bytes of standard unpadded base64 `text`, or `nil` unless all of it decodes
    /// (no stray character, no non-zero trailing bits).
    static func base64Decoded(_ text: String) -> [UInt8]? {
        let capacity = text.utf8.count * 3 / 4 + 1
        var bytes = [UInt8](repeating: 0, count: capacity)
        var count = 0
        let status = withUTF8Chars(of: text) { chars, length in
            // A nil `b64_end` makes libsodium fail unless it consumed the whole input.
            sodium_base642bin(&bytes, capacity, chars, length, nil, &count, nil, sodium_base64_VARIANT_ORIGINAL_NO_PADDING)
        }
        guard status == 0 else { return nil }
        return Array(bytes.prefix(count))
    }

    /// `count` bytes from libsodium's random source.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }

    /// The text of a NUL-terminated C string that libsodium wrote into a Swift array.
    static func string(fromNULTerminated chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
