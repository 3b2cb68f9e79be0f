private import CSQLite
package import Foundation

/// A value bound to a statement parameter.
package enum SQLValue: Sendable {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case null
    /// An id as text, the way the tables hold every id: what Foundation's `uuidString`
    /// gives (36 characters, uppercase hexadecimal digits in groups of 8-4-4-4-12). Written
    /// straight into the statement from the id's bytes: `uuidString` formats through
    /// `snprintf` into a new string, and an undo bound ten of them under the writer lock.
    case id(UUID)

    package static func integer(_ value: Int) -> SQLValue { .integer(Int64(value)) }
    package static func optional(_ value: Int?) -> SQLValue { value.map { .integer(Int64($0)) } ?? .null }
}

/// A prepared statement owned by its `Connection`'s cache.
package final class Statement {
    private let handle: OpaquePointer
    /// Unowned: the connection owns its statements and finalizes them before it closes.
    private unowned let connection: Connection

    init(_ handle: OpaquePointer, connection: Connection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Runs the statement with `values` for a statement that returns no rows.
    package func run(_ values: SQLValue...) throws(SQLiteError) {
        try run(values)
    }

    /// Runs the statement with `values` for a statement that returns no rows.
    package func run(_ values: [SQLValue]) throws(SQLiteError) {
        try bind(values)
        defer { reset() }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw connection.error(code) }
    }

    /// Runs the statement with `values` and turns each row into a value with `row`.
    package func query<T>(_ values: SQLValue..., row: (Row) -> T) throws(SQLiteError) -> [T] {
        try query(values, row: row)
    }

    /// Runs the statement with `values` and turns each row into a value with `row`.
    package func query<T>(_ values: [SQLValue], row: (Row) -> T) throws(SQLiteError) -> [T] {
        try bind(values)
        defer { reset() }
        var rows: [T] = []
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw connection.error(code) }
            rows.append(row(Row(handle: handle)))
        }
    }

    /// Runs the statement with `values`, handing each row to `body` until it returns false.
    package func scan(_ values: [SQLValue], _ body: (Row) -> Bool) throws(SQLiteError) {
        try bind(values)
        defer { reset() }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw connection.error(code) }
            if !body(Row(handle: handle)) { return }
        }
    }

    /// How many virtual-machine steps the statement has run since the last call: a
    /// measure of the work SQLite did that does not depend on the machine's speed.
    package func takeSteps() -> Int {
        Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_VM_STEP, 1))
    }

    private func bind(_ values: [SQLValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number):
                code = sqlite3_bind_int64(handle, index, number)
            case .text(let text):
                // An explicit byte count keeps text with NUL characters whole; SQLite copies it.
                code = sqlite3_bind_text64(
                    handle, index, text, UInt64(text.utf8.count), lucid_sqlite_transient(), UInt8(SQLITE_UTF8))
            case .blob(let bytes) where bytes.isEmpty:
                // A NULL pointer would bind NULL: an empty blob is still a blob.
                code = sqlite3_bind_zeroblob(handle, index, 0)
            case .blob(let bytes):
                // SQLite copies the bytes before returning.
                code = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob64(handle, index, buffer.baseAddress, UInt64(buffer.count), lucid_sqlite_transient())
                }
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .id(let id):
                code = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.idLength) { text in
                    Self.write(id, into: text)
                    // SQLite copies the text before returning.
                    return sqlite3_bind_text64(
                        handle, index, text.baseAddress, UInt64(Self.idLength), lucid_sqlite_transient(), UInt8(SQLITE_UTF8))
                }
            }
            guard code == SQLITE_OK else {
                reset()
                throw connection.error(code)
            }
        }
    }

    /// How many times SQLite compiled the statement again since it was prepared.
    package func recompilations() -> Int {
        Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0))
    }

    private static let idLength = 36
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Writes `id` as ``SQLValue/id(_:)`` has it into `text`, which holds ``idLength`` bytes.
    private static func write(_ id: UUID, into text: UnsafeMutableBufferPointer<UInt8>) {
        withUnsafeBytes(of: id.uuid) { octets in
            var position = 0
            for (index, octet) in octets.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[position] = UInt8(ascii: "-")
                    position += 1
                }
                text[position] = hexDigits[Int(octet >> 4)]
                text[position + 1] = hexDigits[Int(octet & 0xF)]
                position += 2
            }
        }
    }

    private func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }
}

/// The current row of a stepping statement; valid only inside the `query` callback.
package struct Row {
    fileprivate let handle: OpaquePointer

    package func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    package func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    package func optionalInt(_ column: Int32) -> Int? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : int(column)
    }

    /// The column as text, copied out of SQLite's buffer before the row moves on.
    package func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column as bytes, copied out of SQLite's buffer before the row moves on.
    package func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// The size of the column's text in bytes, without copying it.
    package func byteCount(_ column: Int32) -> Int { Int(sqlite3_column_bytes(handle, column)) }

    package func optionalText(_ column: Int32) -> String? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : text(column)
    }
}
