import Foundation

/// An appointment a letter calls its reader to: the day, the time to be there, where, what to
/// bring and how to cancel or change it. Printed by `ingest --json` as
/// `{"date": "YYYY-MM-DD", "time": "HH:MM" or null, "place", "bring", "change"}`.
public struct Appointment: Sendable, Codable, Equatable, Hashable {
    /// `YYYY-MM-DD`.
    public var date: String
    /// `HH:MM`: the appointment's time, or the arrival time where only that is printed; nil when
    /// the letter gives no time.
    public var time: String?
    /// Building, floor, department or address, as printed.
    public var place: String?
    /// What to bring, as printed (list items joined by "; ").
    public var bring: String?
    /// How to cancel or change the appointment, as printed.
    public var change: String?
    /// True when the letter cancels the appointment ("avlyst") rather than calling to it.
    public var cancelled: Bool
    /// The earlier appointment's date (`YYYY-MM-DD`) when the letter moves or cancels one.
    public var replaces: String?
    /// True when the letter says it moves or replaces an earlier appointment ("ny time", "flyttet",
    /// "erstatter"), whether or not it names the earlier day.
    public var moved: Bool

    public init(date: String, time: String? = nil, place: String? = nil, bring: String? = nil,
                change: String? = nil, cancelled: Bool = false, replaces: String? = nil, moved: Bool = false) {
        self.date = date
        self.time = time
        self.place = place
        self.bring = bring
        self.change = change
        self.cancelled = cancelled
        self.replaces = replaces
        self.moved = moved
    }

    private enum CodingKeys: String, CodingKey { case date, time, place, bring, change, cancelled, replaces, moved }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        date = try c.decode(String.self, forKey: .date)
        time = try c.decodeIfPresent(String.self, forKey: .time)
        place = try c.decodeIfPresent(String.self, forKey: .place)
        bring = try c.decodeIfPresent(String.self, forKey: .bring)
        change = try c.decodeIfPresent(String.self, forKey: .change)
        cancelled = try c.decodeIfPresent(Bool.self, forKey: .cancelled) ?? false
        replaces = try c.decodeIfPresent(String.self, forKey: .replaces)
        moved = try c.decodeIfPresent(Bool.self, forKey: .moved) ?? false
    }

    /// Always prints `date`, `time`, `place`, `bring` and `change` (null when unknown);
    /// `cancelled`, `replaces` and `moved` only when set.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(date, forKey: .date)
        try c.encode(time, forKey: .time)
        try c.encode(place, forKey: .place)
        try c.encode(bring, forKey: .bring)
        try c.encode(change, forKey: .change)
        if cancelled { try c.encode(true, forKey: .cancelled) }
        try c.encodeIfPresent(replaces, forKey: .replaces)
        if moved { try c.encode(true, forKey: .moved) }
    }

    /// The day as a calendar date (nil only for a malformed stored value).
    public var calendarDate: CalendarDate? { CalendarDate(iso: date) }

    /// Hours and minutes of `time`, when it is a valid `HH:MM`.
    public var clock: (hour: Int, minute: Int)? {
        guard let time else { return nil }
        let parts = time.split(separator: ":")
        guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0...23).contains(h), (0...59).contains(m)
        else { return nil }
        return (h, m)
    }
}
