import Foundation

/// One SQLite value: what a column holds and what a parameter binds.
public enum DatabaseValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    public var isNull: Bool { self == .null }

    /// The integer, if this is one (a whole real number also counts).
    public var int: Int? {
        switch self {
        case .integer(let value): Int(exactly: value)
        case .real(let value): Int(exactly: value)
        default: nil
        }
    }

    public var double: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    public var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    public var data: Data? {
        if case .blob(let value) = self { return value }
        return nil
    }
}

/// A Swift value that can be bound as a statement parameter and read back from a column.
public protocol DatabaseValueConvertible {
    var databaseValue: DatabaseValue { get }
    /// The value read from a column, or nil when the column holds another type (or NULL).
    static func fromDatabaseValue(_ value: DatabaseValue) -> Self?
}

extension DatabaseValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> DatabaseValue? { value }
}

extension Int: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int? { value.int }
}

extension Int64: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Int64? { value.int.map(Int64.init) }
}

extension Bool: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Bool? { value.int.map { $0 != 0 } }
}

extension Double: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .real(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Double? { value.double }
}

extension String: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> String? { value.string }
}

extension Data: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .blob(self) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Data? { value.data }
}

extension Array: DatabaseValueConvertible where Element == UInt8 {
    public var databaseValue: DatabaseValue { .blob(Data(self)) }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> [UInt8]? { value.data.map { [UInt8]($0) } }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
    public static func fromDatabaseValue(_ value: DatabaseValue) -> Wrapped?? {
        value.isNull ? .some(nil) : Wrapped.fromDatabaseValue(value).map { .some($0) }
    }
}

/// One result row: column names and values, copied out of the statement.
public struct Row: Sendable, Hashable {
    public let columns: [String]
    public let values: [DatabaseValue]

    /// The value at a column index; `.null` past the end.
    public subscript(_ index: Int) -> DatabaseValue {
        values.indices.contains(index) ? values[index] : .null
    }

    /// The value of the first column with this name (case-insensitive, as in SQL); `.null` when absent.
    public subscript(_ column: String) -> DatabaseValue {
        guard let index = columns.firstIndex(where: { $0.caseInsensitiveCompare(column) == .orderedSame }) else {
            return .null
        }
        return values[index]
    }

    /// The column's value as `T`, or nil when NULL or of another type.
    public func get<T: DatabaseValueConvertible>(_ column: String, as type: T.Type = T.self) -> T? {
        T.fromDatabaseValue(self[column])
    }
}
