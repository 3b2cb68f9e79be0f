private import CPostgres
public import LucidStore
#if canImport(Glibc)
import Glibc
#endif

/// Why a PostgreSQL call failed: libpq's message, and the SQLSTATE when the server sent one
/// (`23505` is a unique violation, `40001` a serialization failure).
public struct PGError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var sqlState: String?

    public init(message: String, sqlState: String? = nil) {
        self.message = message
        self.sqlState = sqlState
    }

    public var description: String { sqlState.map { "PostgreSQL \($0): \(message)" } ?? "PostgreSQL: \(message)" }

    /// This failure as every store reports failures: what the same request may survive
    /// (a lost connection, a serialization failure, a server shutting down) is `.busy`.
    public var failure: StoreFailure {
        let kind: StoreFailure.Kind = switch sqlState {
        case nil: .busy  // no answer from the server: the connection is gone
        case let state? where state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("40") || state == "53300"
            || state == "55P03": .busy
        case let state? where state.hasPrefix("53"): .full
        case "25006"?: .readOnly
        case let state? where state.hasPrefix("23"): .constraint
        default: .other
        }
        return StoreFailure(kind, description)
    }
}

/// The rows of a query, every value as text (libpq's text format) or nil for NULL.
public struct PGRows: Sendable {
    public var rows: [[String?]]
    /// How many rows the command changed (INSERT, UPDATE, DELETE), 0 for others.
    public var affected: Int
}

/// One connection to PostgreSQL through libpq. Used by one thread at a time: a pool hands
/// each out to one caller at a time. Every libpq pointer lives and dies inside this type.
///
/// Every statement with parameters is prepared once per connection, named by the order in
/// which it was first seen, and executed by name from then on.
public final class PGConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The names of the statements prepared on this connection, by their SQL.
    private var prepared: [String: String] = [:]

    /// Connects to `url` (`postgresql://user@host:port/database`, or with `?host=/socket/dir`).
    public init(url: String) throws(PGError) {
        guard let connection = PQconnectdb(url) else { throw PGError(message: "libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.text(PQerrorMessage(connection))
            PQfinish(connection)
            throw PGError(message: message)
        }
        handle = connection
        // Notices (such as "already exists, skipping") are not for the server's log; a lock
        // held elsewhere is waited for as long as SQLite waits for a busy database.
        try execute("SET client_min_messages TO warning")
        try execute("SET lock_timeout TO '5s'")
        // Every statement names one user and is answered through an index whatever its
        // values, so one plan per statement serves: planning anew on each execution, as
        // PostgreSQL does at first, cost more than running most of them.
        try execute("SET plan_cache_mode TO force_generic_plan")
    }

    deinit { PQfinish(handle) }

    /// Runs `sql` with `parameters` ($1, $2, … as text; nil is NULL) and answers its rows,
    /// through a statement prepared on first use.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws(PGError) -> PGRows {
        let name = try statement(sql)
        let result = Self.withCStrings(parameters) { values in
            PQexecPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
        }
        return try rows(of: result)
    }

    /// The name of the prepared statement for `sql`, preparing it if this connection has not.
    private func statement(_ sql: String) throws(PGError) -> String {
        if let name = prepared[sql] { return name }
        let name = "s\(prepared.count)"
        try rows(of: PQprepare(handle, name, sql, 0, nil))
        prepared[sql] = name
        return name
    }

    /// The rows of `result`, which this call frees, or its error.
    @discardableResult
    private func rows(of result: OpaquePointer?) throws(PGError) -> PGRows {
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

    /// Whether the connection is still good to use: open, and not inside a transaction
    /// (a pool takes back only such connections).
    public var isIdle: Bool {
        PQstatus(handle) == CONNECTION_OK && PQtransactionStatus(handle) == PQTRANS_IDLE
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
        // The primary message alone: the full one spreads context over several lines.
        let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
        return PGError(message: primary ?? text(PQresultErrorMessage(result)), sqlState: state)
    }

    /// Runs `body` in a transaction (`begin` starts it): committed if it returns, rolled back if it throws.
    @discardableResult
    public func transaction<T>(_ begin: String = "BEGIN", _ body: () throws(PGError) -> T) throws(PGError) -> T {
        try execute(begin)
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    // MARK: Notifications

    /// The connection's socket, to wait on for notifications.
    public var socket: Int32 { PQsocket(handle) }

    /// The notifications that have arrived, as (channel, payload), without waiting. Throws
    /// if the connection is lost.
    public func notifications() throws(PGError) -> [(channel: String, payload: String)] {
        guard PQconsumeInput(handle) == 1 else { throw PGError(message: Self.text(PQerrorMessage(handle))) }
        var received: [(channel: String, payload: String)] = []
        while let notification = PQnotifies(handle) {
            received.append((Self.text(notification.pointee.relname), Self.text(notification.pointee.extra)))
            PQfreemem(notification)
        }
        return received
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
