/// Why a password could not be hashed.
public enum CryptoError: Error, Hashable, Sendable {
    /// `crypto_pwhash_str` failed for a password within its length limit: it fails then only
    /// when it cannot allocate the memory the cost asks for (64 MiB for `.interactive`).
    case outOfMemory
    /// The password is longer than libsodium accepts (`crypto_pwhash_PASSWD_MAX` bytes). The
    /// API layer's own 1,024-character limit is far below it, so this signals a missed check.
    case passwordTooLong
}
