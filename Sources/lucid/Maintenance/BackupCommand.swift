import Foundation
import LucidSQLite
import LucidStore

/// `lucid backup [--database PATH] DEST`: a consistent copy of a SQLite database, made
/// while a server keeps writing to it, as the new file DEST. Exits 0 when the copy is in
/// place, 1 when it could not be made (nothing is left at DEST), 64 for a bad command line
/// or a PostgreSQL database, which has its own tools.
enum BackupCommand {
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        let parsed: MaintenanceArguments
        do throws(Configuration.Invalid) {
            parsed = try MaintenanceArguments(arguments, environment: environment)
        } catch {
            return usage("\(error)")
        }
        guard let destination = parsed.operands.first, parsed.operands.count == 1, !destination.isEmpty else {
            return usage(parsed.operands.count > 1
                ? "backup takes one DEST, not \(parsed.operands.count); see lucid --help"
                : "backup needs DEST, the new file to write the copy to; see lucid --help")
        }
        let database = Database(parsed.database)
        guard case .sqlite(let path) = database else {
            return usage("""
                backup copies SQLite databases only, and \(database.redacted) is PostgreSQL: back it up with \
                pg_dump -Fc (a consistent copy while instances run), or with pg_basebackup and WAL archiving \
                for point-in-time recovery (see "Backups" in the README)
                """)
        }
        let clock = ContinuousClock()
        let started = clock.now
        do throws(BackupError) {
            let summary = try DatabaseBackup.copy(path, to: destination)
            let seconds = (clock.now - started).seconds
            StandardStream.output(
                "lucid backup: copied \(path) to \(destination): \(summary.pages) pages, \(summary.bytes) bytes "
                    + "(\(String(format: "%.1f", Double(summary.bytes) / 1_048_576)) MiB) in \(String(format: "%.3f", seconds)) s\n")
            return 0
        } catch {
            StandardStream.error("lucid: backup: \(error)\n")
            return 1
        }
    }

    private static func usage(_ message: String) -> Int32 {
        StandardStream.error("lucid: \(message)\n")
        return 64
    }
}

extension Duration {
    /// The duration in seconds, with its fraction.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
