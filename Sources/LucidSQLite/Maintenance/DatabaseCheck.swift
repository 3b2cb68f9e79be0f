import Foundation
import LucidMigrations
public import LucidSQLiteCore
import LucidStore

/// One thing `lucid check` found wrong with a database.
public struct CheckFault: Hashable, Sendable, CustomStringConvertible {
    /// The journal it is in, by its user's id as the API and the request log write it (in
    /// lower case); `nil` for the database as a whole. Dreams are named the same way.
    public var journal: String?
    public var message: String

    /// A fault of `journal` (or of the whole database) that `message` describes.
    public init(journal: String?, _ message: String) {
        self.journal = journal
        self.message = message
    }

    public var description: String { journal.map { "journal \($0): \(message)" } ?? message }
}

/// What `lucid check` found.
public struct CheckReport: Hashable, Sendable {
    /// The faults listed, database-wide ones first, then each journal's in order.
    public var faults: [CheckFault] = []
    /// Faults found but not listed: a journal lists at most ``DatabaseCheck/faultsPerJournal``.
    public var unlisted = 0
    public var journals = 0
    public var versions = 0
    public var revisions = 0

    /// Every fault found, listed or not.
    public var faultCount: Int { faults.count + unlisted }
}

/// Checks a SQLite database as `lucid check` does: SQLite's own checks of its file
/// (`integrity_check`, `foreign_key_check`, and the R*Tree's `rtreecheck`), that the schema
/// is the one this build migrates to, that the revision spans index exactly the ended
/// revisions, then every journal (see `JournalCheck`, its search index rows included), and that no share names a version
/// its journal has not reached.
///
/// The database is opened read-only and read in one transaction: on a database a server is
/// using, the check sees one moment of it (a WAL snapshot) and holds up none of its writes.
public enum DatabaseCheck {
    /// The most faults listed for one journal; the rest are counted.
    public static let faultsPerJournal = 20

    /// Checks the database at `path`. Throws only when it cannot be read at all.
    public static func run(_ path: String) throws(SQLiteError) -> CheckReport {
        try run(path, migrations: Migration.embedded)
    }

    static func run(_ path: String, migrations: [Migration]) throws(SQLiteError) -> CheckReport {
        let connection = try Connection(path: path, for: .reading)
        try connection.execute("BEGIN")
        defer { _ = try? connection.execute("COMMIT") }
        var report = CheckReport()
        func fault(_ message: String) { report.faults.append(CheckFault(journal: nil, message)) }

        for line in try connection.statement("PRAGMA integrity_check").query(row: { $0.text(0) }) where line != "ok" {
            fault("integrity_check: \(line)")
        }
        for line in try connection.statement("PRAGMA foreign_key_check").query(row: { row in
            "foreign_key_check: row \(row.int(1)) of \(row.text(0)) refers to a missing row of \(row.text(2))"
        }) {
            fault(line)
        }
        guard try schemaIsCurrent(connection, migrations: migrations, fault: fault) else { return report }

        let spans = try connection.statement("SELECT rtreecheck('dream_revision_spans')").query { $0.text(0) }.first ?? "ok"
        if spans != "ok" {
            for line in spans.split(separator: "\n") { fault("rtreecheck(dream_revision_spans): \(line)") }
        }
        var journalFaults: [String: [String]] = [:]
        for (journal, message) in try spanFaults(connection) { journalFaults[journal, default: []].append(message) }
        for (journal, message) in try shareFaults(connection) { journalFaults[journal, default: []].append(message) }

        let tables = JournalTables(connection: connection)
        report.revisions = try connection.statement("SELECT count(*) FROM dream_revisions").query { $0.int(0) }.first ?? 0
        let journals = try connection.statement("""
            SELECT user_id FROM versions UNION SELECT user_id FROM dream_revisions UNION SELECT user_id FROM journals
            """).query { $0.text(0) }
        report.journals = journals.count
        for journal in journals {
            var faults = journalFaults.removeValue(forKey: journal) ?? []
            do throws(SQLiteError) {
                let (found, versions) = try JournalCheck(journal: journal, tables: tables).run()
                faults += found
                report.versions += versions
            } catch {
                faults.append("its rows cannot be read: \(error.message)")
            }
            report.faults += faults.prefix(faultsPerJournal).map { CheckFault(journal: journal.lowercased(), $0) }
            report.unlisted += max(0, faults.count - faultsPerJournal)
        }
        // Faults of shares whose user has no journal at all.
        for (journal, faults) in journalFaults.sorted(by: { $0.key < $1.key }) {
            report.faults += faults.map { CheckFault(journal: journal.lowercased(), $0) }
        }
        return report
    }

    /// Whether the database records exactly the migrations this build knows, so that the
    /// journal checks can read it; a fault for each difference.
    private static func schemaIsCurrent(
        _ connection: Connection, migrations: [Migration], fault: (String) -> Void
    ) throws(SQLiteError) -> Bool {
        let hasTable = try connection.statement(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'"
        ).query { $0.int(0) }.first == 1
        guard hasTable else {
            fault("this is not a Lucid database: it has no schema_migrations table")
            return false
        }
        let recorded = Set(try connection.statement("SELECT name FROM schema_migrations").query { $0.text(0) })
        let known = migrations.map(\.name)
        let newer = recorded.subtracting(known).sorted()
        let missing = known.filter { !recorded.contains($0) }
        for name in newer { fault("a newer lucid migrated this database (it records \(name)): check it with that lucid") }
        for name in missing { fault("the database lacks the migration \(name) (lucid serve applies it when it starts)") }
        return newer.isEmpty && missing.isEmpty
    }

    /// Ended revisions whose span is missing or wrong, live ones that have a span, and spans
    /// of no revision: the index old versions are read through must hold exactly the ended
    /// revisions, each as its journal's number and versions clamped to 32 bits.
    private static func spanFaults(_ connection: Connection) throws(SQLiteError) -> [(String, String)] {
        let live = JournalTables.live
        let top = Int32.max
        var faults = try connection.statement("""
            SELECT r.user_id, lower(r.dream_id), r.from_version, r.until_version, s.id IS NULL, j.number IS NULL
            FROM dream_revisions AS r
            LEFT JOIN journals AS j ON j.user_id = r.user_id
            LEFT JOIN dream_revision_spans AS s ON s.id = r.id
            WHERE r.until_version != \(live) AND (
                s.id IS NULL OR j.number IS NULL OR s.journal_min != j.number OR s.journal_max != j.number
                OR s.from_version != min(r.from_version, \(top)) OR s.until_version != min(r.until_version, \(top)))
            ORDER BY r.user_id, r.dream_id, r.from_version
            """).query { row in
                let revision = "dream \(row.text(1)): its revision from version \(row.int(2)) until \(row.int(3))"
                let problem = row.int(4) == 1 ? "has no revision span"
                    : row.int(5) == 1 ? "has a span but its journal has no number" : "has a span that does not match it"
                return (row.text(0), "\(revision) \(problem), so old versions are read without it")
            }
        faults += try connection.statement("""
            SELECT r.user_id, lower(r.dream_id), r.from_version FROM dream_revisions AS r
            JOIN dream_revision_spans AS s ON s.id = r.id
            WHERE r.until_version = \(live) ORDER BY r.user_id, r.dream_id
            """).query { row in
                (row.text(0), "dream \(row.text(1)): its live revision from version \(row.int(2)) has a revision span")
            }
        faults += try connection.statement("""
            SELECT coalesce(j.user_id, '(journal number ' || s.journal_min || ')'), s.id FROM dream_revision_spans AS s
            LEFT JOIN dream_revisions AS r ON r.id = s.id
            LEFT JOIN journals AS j ON j.number = s.journal_min
            WHERE r.id IS NULL ORDER BY s.id
            """).query { row in (row.text(0), "the revision span \(row.int(1)) belongs to no revision") }
        return faults
    }

    /// Shares taken at a version their journal has not reached.
    private static func shareFaults(_ connection: Connection) throws(SQLiteError) -> [(String, String)] {
        try connection.statement("""
            SELECT s.user_id, lower(s.id), s.version, (SELECT coalesce(max(v.version), 0) FROM versions AS v WHERE v.user_id = s.user_id)
            FROM shares AS s
            WHERE s.version > (SELECT coalesce(max(v.version), 0) FROM versions AS v WHERE v.user_id = s.user_id)
            ORDER BY s.user_id, s.id
            """).query { row in
                (row.text(0), "share \(row.text(1)) was taken at version \(row.int(2)), after the journal's head, version \(row.int(3))")
            }
    }
}
