import LucidCrypto
import Foundation
import LucidModel
import LucidSQLiteCore
import Synchronization
import Testing
@testable import LucidAPI
@testable import LucidSQLite
import LucidServerTesting
@testable import LucidStore

@Suite struct SweeperTests {
    @Test func aSweepDeletesEveryExpiredSessionInSmallBatchesAndLogsTheCount() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-sweep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("lucid.sqlite").path
        let accounts = try SQLiteAccountStore(path: path)
        let user = User(id: UUID(), username: "sleeper", createdAt: Timestamp(millisecondsSince1970: 0))
        try accounts.register(user, passwordHash: "hash", sessionTokenHash: "forever")
        // 25 sessions that expired at 1 … 25 s, 5 that expire at 100 … 104 s.
        for second in Array(1...25) + Array(100...104) {
            try accounts.createSession(
                NewSession(
                    tokenHash: "t\(second)", id: UUID(), name: "test", createdAt: Timestamp(millisecondsSince1970: 0),
                    expiresAt: Timestamp(millisecondsSince1970: Int64(second) * 1000)),
                for: user.id, provedBy: "hash")
        }
        let records = Mutex<[LogRecord]>([])
        let sweeper = Sweeper(
            "expired sessions", every: nil, batchSize: 10, batchesPerSweep: 2,
            cutoff: { Timestamp(millisecondsSince1970: 50_000) },
            delete: { try accounts.deleteExpiredSessions(at: $0, limit: $1) },
            log: { record in records.withLock { $0.append(record) } })

        // Two batches of ten per sweep: the backlog takes two sweeps, then there is nothing left.
        #expect(sweeper.sweep() == 20)
        #expect(sweeper.sweep() == 5)
        #expect(sweeper.sweep() == 0)
        #expect(records.withLock { $0 } == [
            .message(LogMessage(.info, "deleted expired sessions", text: "deleted 20 expired sessions", fields: [.integer("deleted", 20)])),
            .message(LogMessage(.info, "deleted expired sessions", text: "deleted 5 expired sessions", fields: [.integer("deleted", 5)])),
        ])
        #expect(records.withLock { $0 }.map(\.text) == ["deleted 20 expired sessions", "deleted 5 expired sessions"])
        let connection = try Connection(path: path)
        let remaining = try withExtendedLifetime(connection) {
            try connection.statement("SELECT token_hash FROM sessions ORDER BY token_hash").query { $0.text(0) }
        }
        #expect(remaining == ["forever", "t100", "t101", "t102", "t103", "t104"])
    }

    @Test func aFailedSweepIsAWarningWithWhatItDeletedAndWhy() {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "SQLite error 8: attempt to write a readonly database" }
        }
        let records = Mutex<[LogRecord]>([])
        let calls = Mutex(0)
        let sweeper = Sweeper(
            "expired shares", every: nil, batchSize: 10, cutoff: { Timestamp(millisecondsSince1970: 0) },
            delete: { _, limit in
                // One full batch, then the database refuses.
                guard calls.withLock({ $0 += 1; return $0 }) == 1 else { throw Refused() }
                return limit
            },
            log: { record in records.withLock { $0.append(record) } })
        #expect(sweeper.sweep() == 10)
        #expect(records.withLock { $0 } == [
            .message(LogMessage(
                .warning, "deleting expired shares failed",
                text: "deleting expired shares failed after 10: SQLite error 8: attempt to write a readonly database",
                fields: [.integer("deleted", 10), .string("error", "SQLite error 8: attempt to write a readonly database")])),
        ])
    }

    @Test func theAPISweepsOnItsOwnTimer() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-sweep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("lucid.sqlite").path
        let accounts = try SQLiteAccountStore(path: path)
        let clock = TestClock()
        let api = API(
            journals: try SQLiteJournalStore(path: path), accounts: accounts,
            configuration: APIConfiguration(passwordCost: .minimum, sessionSweepSeconds: 1), environment: clock.environment,
            log: { _ in })
        let user = User(id: UUID(), username: "sleeper", createdAt: clock.now)
        try accounts.register(user, passwordHash: "hash", sessionTokenHash: "forever")
        try accounts.createSession(
            NewSession(
                tokenHash: "brief", id: UUID(), name: "test", createdAt: clock.now,
                expiresAt: Timestamp(millisecondsSince1970: clock.now.millisecondsSince1970 + 60_000)),
            for: user.id, provedBy: "hash")
        clock.advance(seconds: 60)
        // The timer fires every second; give it ten before calling it missing.
        let deadline = Date().addingTimeInterval(10)
        while try accounts.session(tokenHash: "brief") != nil, Date() < deadline { usleep(50_000) }
        #expect(try accounts.session(tokenHash: "brief") == nil)
        #expect(try accounts.session(tokenHash: "forever") != nil)
        withExtendedLifetime(api) {}
    }
}
