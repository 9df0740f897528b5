internal import CSQLite
import Foundation

/// SQLite's "copy the bytes now" destructor. `SQLITE_TRANSIENT` is a cast macro Swift cannot import.
private var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

/// A prepared statement: owns its `sqlite3_stmt` and finalizes it when released.
///
/// Like its ``Database``, used from one thread at a time. It keeps its database open.
public final class Statement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    /// The database a statement handed out keeps open; nil for one the database keeps itself
    /// (its statement cache), which it finalizes before it closes.
    private let owner: Database?
    /// The SQL text, as prepared.
    public let sql: String

    init(database: Database, sql: String, kept: Bool = false) throws(DatabaseError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, kept ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0, &statement, nil)
        do {
            try DatabaseError.check(code, connection: database.handle, sql: sql)
        } catch {
            sqlite3_finalize(statement)
            throw error
        }
        guard let statement else {
            // Only whitespace or a comment: SQLite prepares nothing.
            throw DatabaseError.failure(SQLITE_MISUSE, connection: nil, sql: sql, message: "no statement in the SQL text")
        }
        self.handle = statement
        self.connection = database.handle
        self.owner = kept ? nil : database
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: Parameters

    /// Clears earlier bindings and binds `arguments` to `?` parameters 1, 2, … in order.
    public func bind(_ arguments: [any DatabaseValueConvertible]) throws(DatabaseError) {
        try check(sqlite3_reset(handle))
        try check(sqlite3_clear_bindings(handle))
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard arguments.count == expected else {
            // Binding past the last parameter is SQLITE_RANGE; fewer would silently bind NULL.
            throw DatabaseError.failure(SQLITE_RANGE, connection: nil, sql: sql,
                                        message: "\(arguments.count) arguments for \(expected) parameters")
        }
        for (offset, argument) in arguments.enumerated() {
            try bind(argument.databaseValue, at: Int32(offset + 1))
        }
    }

    private func bind(_ value: DatabaseValue, at index: Int32) throws(DatabaseError) {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let int):
            code = sqlite3_bind_int64(handle, index, int)
        case .real(let double):
            code = sqlite3_bind_double(handle, index, double)
        case .text(let string):
            let bytes = Array(string.utf8)
            code = bytes.withUnsafeBytes { buffer in
                // A nil pointer would bind NULL; an empty string must stay an empty string.
                let pointer = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                return pointer.map { sqlite3_bind_text64(handle, index, $0, sqlite3_uint64(buffer.count), transient, UInt8(SQLITE_UTF8)) }
                    ?? sqlite3_bind_text(handle, index, "", 0, transient)
            }
        case .blob(let data):
            code = data.withUnsafeBytes { buffer in
                buffer.baseAddress.map { sqlite3_bind_blob64(handle, index, $0, sqlite3_uint64(buffer.count), transient) }
                    ?? sqlite3_bind_zeroblob(handle, index, 0)
            }
        }
        try check(code)
    }

    // MARK: Stepping

    /// Runs the statement to its next row: true when a row is ready to read, false when done.
    @discardableResult
    public func step() throws(DatabaseError) -> Bool {
        let code = sqlite3_step(handle)
        try check(code)
        return code == SQLITE_ROW
    }

    /// Rewinds the statement so it can run again (bindings are kept).
    public func reset() throws(DatabaseError) {
        try check(sqlite3_reset(handle))
    }

    /// Rewinds the statement and lets go of its bound values (a kept statement between two uses:
    /// it holds no read transaction open and no copy of what was bound).
    func finish() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Steps through every row, copying each out.
    public func rows() throws(DatabaseError) -> [Row] {
        var rows: [Row] = []
        while try step() { rows.append(row()) }
        return rows
    }

    // MARK: Columns

    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    public func columnName(_ index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The value of a column of the current row.
    public func value(at index: Int) -> DatabaseValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let blob = sqlite3_column_blob(handle, column), count > 0 else { return .blob(Data()) }
            return .blob(Data(bytes: blob, count: count))
        default:
            return .null
        }
    }

    /// The current row, copied out.
    public func row() -> Row {
        let count = columnCount
        return Row(columns: (0..<count).map(columnName), values: (0..<count).map(value(at:)))
    }

    private func check(_ code: Int32) throws(DatabaseError) {
        try DatabaseError.check(code, connection: connection, sql: sql)
    }
}
