/// Days between calendar dates, counted in the proleptic Gregorian calendar (no time zones, no
/// clock): how far apart two letters are, and the day a number of days on.
extension CalendarDate {
    /// The number of the day counted from 1970-01-01 (day 0); negative before it.
    public var dayNumber: Int { Self.dayNumber(year: year, month: month, day: day) }

    /// The number of a day given by its parts, counted as ``dayNumber`` (the parts unchecked).
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        // Howard Hinnant's days-from-civil: the year taken to start in March, so February's
        // leap day falls at the end of it.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(to other: CalendarDate) -> Int { other.dayNumber - dayNumber }
}

extension CalendarDate {
    /// The day `days` on (back, when negative); nil outside the years a ``CalendarDate`` holds.
    public func adding(days: Int) -> CalendarDate? {
        // Howard Hinnant's civil-from-days, the inverse of ``dayNumber``.
        let z = dayNumber + days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return CalendarDate(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }
}
