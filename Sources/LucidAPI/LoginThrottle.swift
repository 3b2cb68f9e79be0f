import Synchronization

/// Slows down password guessing per username: the first few failures cost nothing, then
/// each further one doubles a lockout, up to a ceiling. A success clears the record.
/// Kept in memory: a restart forgets it, which costs an attacker a restart of ours.
final class LoginThrottle: Sendable {
    /// Failures allowed before any lockout.
    static let freeFailures = 5
    /// The longest lockout, in seconds.
    static let ceiling: Int64 = 900
    /// Past this many usernames tracked, the oldest records are dropped.
    private static let limit = 100_000

    private struct Record {
        var failures: Int
        var lockedUntil: Int64
    }

    private let records = Mutex<[String: Record]>([:])

    /// Seconds the caller must wait before trying `username` again, or `nil` if it may try now.
    func retryAfter(_ username: String, now: Int64) -> Int64? {
        records.withLock { records in
            guard let record = records[username], record.lockedUntil > now else { return nil }
            return (record.lockedUntil - now + 999) / 1000
        }
    }

    /// Records a failed login at `now` (milliseconds).
    func failed(_ username: String, now: Int64) {
        records.withLock { records in
            if records.count >= Self.limit, records[username] == nil { records.removeAll(keepingCapacity: true) }
            var record = records[username] ?? Record(failures: 0, lockedUntil: 0)
            record.failures += 1
            let over = record.failures - Self.freeFailures
            if over >= 0 {
                let seconds = min(Self.ceiling, Int64(1) << min(over, 20))
                record.lockedUntil = now + seconds * 1000
            }
            records[username] = record
        }
    }

    func succeeded(_ username: String) {
        _ = records.withLock { $0.removeValue(forKey: username) }
    }
}
