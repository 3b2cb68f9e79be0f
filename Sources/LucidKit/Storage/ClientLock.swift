import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// An advisory lock (`flock`) on a file beside an account's file: every ``JournalClient`` of the
/// account holds it shared for as long as it lives, in whatever process, and signing out takes
/// it alone, so a sign-out never deletes the file under a running client (another terminal's
/// `lucid journal watch`, an app's client). The system lets go of it when the process ends,
/// however it ends.
final class ClientLock: Sendable {
    private let descriptor: Int32

    /// The lock beside the account file at `path`, taken shared (waiting for a sign-out that
    /// holds it to finish), or alone without waiting; `nil` if it is held otherwise.
    init?(beside path: String, alone: Bool) {
        let descriptor = open(Self.path(beside: path), O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, alone ? LOCK_EX | LOCK_NB : LOCK_SH) == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The lock's file for the account file at `path`.
    static func path(beside path: String) -> String { path + "-clients" }
}
