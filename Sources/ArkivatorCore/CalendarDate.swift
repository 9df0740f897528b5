import Foundation

/// A calendar date as letters print it, without time zone games: the letter's date, the scan
/// date, a birth date. Years 1900…2100; the same day always compares and prints the same way.
public struct CalendarDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init?(year: Int, month: Int, day: Int) {
        guard (1900...2100).contains(year), Self.isValid(year: year, month: month, day: day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    private init(checked year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// 2000-01-01: stands in only when neither the clock nor a file date can be read.
    public static let fallback = CalendarDate(checked: 2000, month: 1, day: 1)

    /// `YYYY-MM-DD`.
    public var iso: String { String(format: "%04d-%02d-%02d", year, month, day) }
    public var description: String { iso }

    /// Exactly `YYYY-MM-DD` (four, two and two ASCII digits) naming a real day; nothing else, so
    /// `2024-3-5`, `+2024-03-05` and `2024-03-05T10:00` are refused rather than read loosely.
    public init?(iso: String) {
        guard let (year, month, day) = Self.isoComponents(iso) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The year, month and day of exactly `YYYY-MM-DD` naming a real day, for any year
    /// (birth dates reach back before 1900); nil for anything else.
    public static func isoComponents(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              isValid(year: year, month: month, day: day) else { return nil }
        return (year, month, day)
    }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    /// Today in the local calendar.
    public static func today(_ now: Date = Date()) -> CalendarDate? {
        day(of: now)
    }

    /// The local calendar day of a moment.
    public static func day(of now: Date) -> CalendarDate? {
        let c = Calendar(identifier: .gregorian).dateComponents([.year, .month, .day], from: now)
        return CalendarDate(year: c.year ?? 0, month: c.month ?? 0, day: c.day ?? 0)
    }

    /// True when the day exists in the Gregorian calendar (any year).
    public static func isValid(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= days[month - 1]
    }

    // Stored and exchanged as its ISO text.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = CalendarDate(iso: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not a YYYY-MM-DD date: \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso)
    }
}
