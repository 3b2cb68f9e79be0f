/// Why a password could not be hashed or checked.
public enum CryptoError: Error, Hashable, Sendable {
    /// The memory the cost asks for (64 MiB for `.interactive`) could not be allocated: the
    /// only way `crypto_pwhash_str` fails for a password within its length limit, and the only
    /// way `PasswordHasher.verify` fails. It says nothing about the password: try again later.
    case outOfMemory
    /// The password is longer than libsodium accepts (`crypto_pwhash_PASSWD_MAX` bytes). The
    /// API layer's own 1,024-character limit is far below it, so this signals a missed check.
    case passwordTooLong
}
