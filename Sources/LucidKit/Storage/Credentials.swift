public import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Where a device keeps an account's session token, apart from its journal. ``FileCredentials``
/// is the default; an app on Apple platforms puts the Keychain in its place (an item of class
/// `kSecClassInternetPassword` for `server`'s host and `username`, say).
public protocol CredentialStore: Sendable {
    /// The token saved for `username` on `server`; nil if there is none.
    func token(server: URL, username: String) throws(CredentialError) -> String?
    /// Saves `token` for `username` on `server` in place of any before it; nil deletes it.
    func setToken(_ token: String?, server: URL, username: String) throws(CredentialError)
}

/// Why a token could not be read or saved.
public struct CredentialError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { "the session token could not be kept: \(reason)" }
}

/// A token in a file of its own that only its owner can read or write (mode 0600), replaced
/// whole when it changes: one file for one account, beside the account's journal by default.
public struct FileCredentials: CredentialStore {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func token(server: URL, username: String) throws(CredentialError) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let token = String(decoding: data, as: UTF8.self)
        return token.isEmpty ? nil : token
    }

    public func setToken(_ token: String?, server: URL, username: String) throws(CredentialError) {
        guard let token else {
            guard unlink(path) == 0 || errno == ENOENT else { throw failure("deleting \(path)") }
            return
        }
        // Written under a name of its own (two processes may save at once), created 0600 so
        // no moment finds it readable to others, synced, then renamed over the old, and the
        // folder synced: a reader sees the old token or the new, whole, after a crash too.
        let staged = path + "." + UUID().uuidString + ".new"
        let descriptor = open(staged, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("creating \(staged)") }
        let bytes = Array(token.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else {
            let error = failure("writing \(staged)")
            close(descriptor)
            unlink(staged)
            throw error
        }
        close(descriptor)
        guard rename(staged, path) == 0 else {
            let error = failure("renaming \(staged)")
            unlink(staged)
            throw error
        }
        let parent = (path as NSString).deletingLastPathComponent
        let folder = open(parent.isEmpty ? "." : parent, O_RDONLY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    private func failure(_ doing: String) -> CredentialError {
        CredentialError("\(doing): \(String(cString: strerror(errno)))")
    }
}
