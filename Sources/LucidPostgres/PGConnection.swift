import CPostgres
#if canImport(Glibc)
import Glibc
#endif

/// Why a PostgreSQL call failed: libpq's message, and the SQLSTATE when the server sent one
/// (`23505` is a unique violation, `40001` a serialization failure).
public struct PGError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var sqlState: String?

    public var description: String { sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message }
}

/// The rows of a query, every value as text (libpq's text format) or nil for NULL.
public struct PGRows: Sendable {
    public var rows: [[String?]]
    /// How many rows the command changed (INSERT, UPDATE, DELETE), 0 for others.
    public var affected: Int
}

/// One connection to PostgreSQL through libpq. Not shared between threads: a pool hands
/// each out to one caller at a time. Every libpq pointer lives and dies inside this type.
public final class PGConnection {
    private let handle: OpaquePointer

    /// Connects to `url` (`postgresql://user@host:port/database`, or with `?host=/socket/dir`).
    public init(url: String) throws(PGError) {
        guard let connection = PQconnectdb(url) else { throw PGError(message: "libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.text(PQerrorMessage(connection))
            PQfinish(connection)
            throw PGError(message: message)
        }
        handle = connection
    }

    deinit { PQfinish(handle) }

    /// Runs `sql` with `parameters` ($1, $2, … as text; nil is NULL) and answers its rows.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws(PGError) -> PGRows {
        let result = Self.withCStrings(parameters) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        guard let result else { throw PGError(message: Self.text(PQerrorMessage(handle))) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            let (rows, columns) = (PQntuples(result), PQnfields(result))
            let values = (0..<rows).map { row in
                (0..<columns).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : Self.text(PQgetvalue(result, row, column))
                }
            }
            return PGRows(rows: values, affected: Int(Self.text(PQcmdTuples(result))) ?? 0)
        default:
            throw Self.error(of: result)
        }
    }

    /// Runs `sql`, which may hold several statements and no parameters (a migration), as
    /// one simple query.
    public func executeScript(_ sql: String) throws(PGError) {
        guard let result = PQexec(handle, sql) else { throw PGError(message: Self.text(PQerrorMessage(handle))) }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default: throw Self.error(of: result)
        }
    }

    /// The error a failed `result` reports, with its SQLSTATE.
    private static func error(of result: OpaquePointer) -> PGError {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        return PGError(message: text(PQresultErrorMessage(result)), sqlState: state)
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    @discardableResult
    public func transaction<T>(_ body: () throws(PGError) -> T) throws(PGError) -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// `text` trimmed of the new line libpq ends its messages with.
    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        var text = String(cString: pointer)
        while text.last == "\n" { text.removeLast() }
        return text
    }

    /// Calls `body` with `strings` as C strings (NULL for nil), valid for the call only.
    private static func withCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.flatMap { strdup($0) } }
        defer { for copy in copies { free(copy) } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }
}
