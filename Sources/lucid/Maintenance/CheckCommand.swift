import Foundation
import LucidSQLite
import LucidSQLiteCore
import LucidStore

/// `lucid check [--database PATH]`: checks a SQLite database (a backup, or one a server is
/// using, which it reads as one snapshot without holding up a write), one line per fault,
/// then a summary. Exits 0 when nothing is wrong, 1 when something is or the database
/// cannot be read, 64 for a bad command line or a PostgreSQL database.
enum CheckCommand {
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        let parsed: MaintenanceArguments
        do throws(Configuration.Invalid) {
            parsed = try MaintenanceArguments(arguments, environment: environment)
        } catch {
            return usage("\(error)")
        }
        guard parsed.operands.isEmpty else {
            return usage("check takes no operands (the database is named by --database); see lucid --help")
        }
        let database = Database(parsed.database)
        guard case .sqlite(let path) = database else {
            return usage("""
                check reads SQLite databases only, and \(database.redacted) is PostgreSQL, which checks its own \
                storage (pg_amcheck); back it up with pg_dump (see "Backups" in the README)
                """)
        }
        let clock = ContinuousClock()
        let started = clock.now
        let report: CheckReport
        do throws(SQLiteError) {
            report = try DatabaseCheck.run(path)
        } catch {
            StandardStream.error("lucid: check: cannot read the database at \(path): \(error)\n")
            return 1
        }
        for fault in report.faults { StandardStream.output("\(fault)\n") }
        let found = report.faultCount == 0
            ? "no faults" : counted(report.faultCount, "fault") + (report.unlisted > 0 ? " (\(report.unlisted) not listed)" : "")
        StandardStream.output(
            "lucid check: \(path): \(counted(report.journals, "journal")), \(counted(report.versions, "version")), "
                + "\(counted(report.revisions, "dream revision")), checked in \(String(format: "%.3f", (clock.now - started).seconds)) s: "
                + "\(found)\n")
        return report.faultCount == 0 ? 0 : 1
    }

    /// "1 fault", "2 faults".
    private static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    private static func usage(_ message: String) -> Int32 {
        StandardStream.error("lucid: \(message)\n")
        return 64
    }
}
