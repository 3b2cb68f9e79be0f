#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LucidHTTPTesting
import LucidSQLiteCore
import Synchronization
import Testing
@testable import LucidSQLite
import LucidServerTesting
@testable import LucidStore

/// `lucid backup` and `lucid check`, the real binary beside a real `lucid serve`: a copy
/// made while writers keep writing holds every write acknowledged before it began, checks
/// clean, and serves; a planted fault is found and named. The commands copy and check
/// SQLite files only, so the suite runs in the test command's first pass only.
@Suite("lucid backup and lucid check", .enabled(if: !TestDatabase.onPostgres))
struct BackupCommandTests {
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32?, output: String, errors: String) {
        let child = try ChildProcess(LucidBinary.url, arguments, environment: environment)
        let status = child.waitForExit(seconds: 60)
        return (status, child.output, child.errors)
    }

    /// The acknowledged writes of several writers, and the requests that failed.
    final class Writes: Sendable {
        /// Each acknowledged dream: its user's token and its id, in the order acknowledged.
        let acknowledged = Mutex<[(token: String, id: String)]>([])
        let failures = Mutex<[String]>([])
        let stop = Atomic<Bool>(false)
    }

    @Test func aBackupWhileWritersWriteHoldsEveryWriteAcknowledgedBeforeItAndChecksCleanAndServes() throws {
        let server = try KillableServer()
        defer { server.stop() }
        let client = PortClient(port: server.port)
        let tokens = try (0..<4).map { try client.register("writer\($0)") }
        let writes = Writes()
        let destination = server.folder.appendingPathComponent("backup.sqlite").path

        // Several writers add dreams over HTTP the whole time, each on connections of its own.
        let done = DispatchSemaphore(value: 0)
        for (writer, token) in tokens.enumerated() {
            Thread {
                var number = 0
                while !writes.stop.load(ordering: .relaxed) {
                    number += 1
                    do {
                        let response = try client.post(
                            "/v1/dreams", json: ["description": "writer \(writer) dream \(number)", "creature": ["kind": "shark"]],
                            token: token)
                        if response.status == 201, let id = response.json["id"].string {
                            writes.acknowledged.withLock { $0.append((token, id)) }
                        } else {
                            writes.failures.withLock { $0.append("\(response.status) \(response.text)") }
                        }
                    } catch {
                        writes.failures.withLock { $0.append("\(error)") }
                    }
                }
                done.signal()
            }.start()
        }
        func acknowledgedCount() -> Int { writes.acknowledged.withLock { $0.count } }
        while acknowledgedCount() < 300 && writes.failures.withLock({ $0.isEmpty }) { usleep(5_000) }

        // Every write acknowledged before the backup starts must be in the copy.
        let before = writes.acknowledged.withLock { $0 }
        let backup = try Self.run(["backup", "--database", server.database.argument, destination])
        usleep(100_000)
        writes.stop.store(true, ordering: .relaxed)
        for _ in tokens { done.wait() }

        #expect(backup.status == 0, "\(backup.errors)")
        #expect(backup.output.contains("lucid backup: copied \(server.database.argument) to \(destination): "))
        #expect(writes.failures.withLock { $0 } == [])
        #expect(acknowledgedCount() > before.count, "the writers went on after the backup")

        let check = try Self.run(["check", "--database", destination])
        #expect(check.status == 0, "\(check.output)\(check.errors)")
        #expect(check.output.hasSuffix(": no faults\n") && check.output.contains(": 4 journals, "), "\(check.output)")

        // The copy serves: the same users and sessions, and every write acknowledged before.
        let (second, port) = try KillableServer.launch(destination)
        defer {
            second.signal(SIGTERM)
            _ = second.waitForExit(seconds: 20)
        }
        let restored = PortClient(port: port)
        for token in tokens {
            let model = try restored.model(token)
            let ids = Set(model["dreams"].array?.compactMap { $0["id"].string } ?? [])
            let expected = before.filter { $0.token == token }.map(\.id)
            #expect(expected.allSatisfy(ids.contains), "\(expected.filter { !ids.contains($0) }.count) acknowledged dreams missing")
        }
        // The first server is still serving its own database.
        #expect(try client.get("/healthz").status == 200)
    }

    @Test func checkNamesTheJournalOfAFaultPlantedInACopy() throws {
        let server = try KillableServer()
        defer { server.stop() }
        let client = PortClient(port: server.port)
        let registered = try client.registerUser("ada")
        let token = try #require(registered["token"].string)
        let user = try #require(registered["user"]["id"].string)
        _ = try client.register("grace")
        for number in 1...5 { try client.addDream(token, "dream \(number)") }

        // A description edited behind the store's back is also not what the search index holds.
        for (name, sql, fault, faults) in [
            ("gap", "DELETE FROM versions WHERE version = 3 AND user_id = ?", "version 3 is missing", "1 fault"),
            ("edit", "UPDATE dream_revisions SET description = 'edited behind its back' WHERE from_version = 4 AND user_id = ?",
             "version 4: its revision rows make another model than its actions make: dream ", "2 faults"),
        ] {
            let copy = server.folder.appendingPathComponent("\(name).sqlite").path
            #expect(try Self.run(["backup", "--database", server.database.argument, copy]).status == 0)
            let connection = try Connection(path: copy)
            try withExtendedLifetime(connection) { try connection.statement(sql).run(.text(user.uppercased())) }
            let check = try Self.run(["check", "--database", copy])
            #expect(check.status == 1, "\(name): \(check.output)")
            #expect(check.output.contains("journal \(user.lowercased()): \(fault)"), "\(name): \(check.output)")
            #expect(check.output.hasSuffix(": \(faults)\n"), "\(name): \(check.output)")
        }
        // The live database itself checks clean while its server runs.
        let live = try Self.run(["check", "--database", server.database.argument])
        #expect(live.status == 0 && live.output.contains(": 1 journal, 5 versions, 5 dream revisions, "), "\(live.output)")
    }

    @Test func backupRefusesAnExistingDestinationAndLeavesItAlone() throws {
        let server = try KillableServer()
        defer { server.stop() }
        let destination = server.folder.appendingPathComponent("precious.sqlite")
        try Data("precious".utf8).write(to: destination)
        let result = try Self.run(["backup", "--database", server.database.argument, destination.path])
        #expect(result.status == 1)
        #expect(result.errors == "lucid: backup: \(destination.path) already exists; a backup never replaces a file: name a new one\n")
        #expect(try Data(contentsOf: destination) == Data("precious".utf8))
        // The database named by LUCID_DATABASE, as serve reads it, when --database is not given.
        let named = server.folder.appendingPathComponent("named.sqlite").path
        let fromEnvironment = try Self.run(["backup", named], environment: ["LUCID_DATABASE": server.database.argument])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.errors)")
    }

    @Test func aMissingDatabaseIsAFailureAndIsNotCreated() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.sqlite").path
        let backup = try Self.run(["backup", "--database", missing, folder.appendingPathComponent("copy.sqlite").path])
        #expect(backup.status == 1 && backup.errors.hasPrefix("lucid: backup: cannot read the database at \(missing): "))
        let check = try Self.run(["check", "--database", missing])
        #expect(check.status == 1 && check.errors.hasPrefix("lucid: check: cannot read the database at \(missing): "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    }

    @Test(arguments: [["backup"], ["check"]])
    func aPostgreSQLDatabaseIsRefusedWithoutItsPassword(_ command: [String]) throws {
        let url = "postgresql://lucid:s3cret-word@db.internal/lucid"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lucid-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let operands = command == ["backup"] ? [folder.appendingPathComponent("copy.sqlite").path] : []
        for (arguments, environment) in [
            (command + ["--database", url] + operands, [String: String]()), (command + operands, ["LUCID_DATABASE": url]),
        ] {
            let result = try Self.run(arguments, environment: environment)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.errors.contains("postgresql://lucid:redacted@db.internal/lucid is PostgreSQL"), "\(result.errors)")
            #expect(result.errors.contains(command == ["backup"] ? "pg_dump" : "pg_amcheck"), "\(result.errors)")
            #expect(!result.errors.contains("s3cret"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test(arguments: [
        ["backup"], ["backup", "one", "two"], ["backup", "--nope", "copy.sqlite"], ["backup", "--database"],
        ["backup", "--database=", "copy.sqlite"], ["backup", ""], ["backup", "--port", "0", "copy.sqlite"],
        ["check", "extra"], ["check", "--database"], ["check", "--verbose"], ["check", "--database", ""],
    ])
    func aBadCommandLineExitsWithUsage(_ arguments: [String]) throws {
        let result = try Self.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.errors)")
        #expect(result.errors.hasPrefix("lucid: "), "\(arguments): \(result.errors)")
        #expect(result.output.isEmpty)
    }

    @Test func helpNamesBothCommands() throws {
        let help = try Self.run(["--help"])
        #expect(help.status == 0)
        for command in ["serve", "backup", "check"] {
            let asked = try Self.run([command, "--help"])
            #expect(asked.status == 0 && asked.output == help.output, "lucid \(command) --help")
        }
        #expect(help.output.contains("lucid backup [--database PATH] DEST") && help.output.contains("lucid check [--database PATH]"))
    }
}
