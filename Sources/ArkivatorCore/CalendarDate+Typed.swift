/// A date as a person types it in a form: `2025-12-01`, `01.12.2025`, `1.12.2025`, `1/12/2025`
/// or «1. desember 2025» («1 des 2025», "1 December 2025"). A day that does not exist, a year
/// of two digits or any other text is nil: the form then says how to write it.
extension CalendarDate {
    public init?(typed text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let day = CalendarDate(iso: trimmed) {
            self = day
            return
        }
        let parts = trimmed.lowercased().split(whereSeparator: { $0 == "." || $0 == "/" || $0 == " " }).map(String.init)
        guard parts.count == 3, let day = Int(parts[0]), parts[2].count == 4, let year = Int(parts[2]),
              let month = Int(parts[1]) ?? Self.month(named: parts[1]) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The months' Norwegian names, January first: the one list every reader of dates uses.
    public static let monthNames = ["januar", "februar", "mars", "april", "mai", "juni", "juli", "august", "september",
                                    "oktober", "november", "desember"]

    /// The month a Norwegian or English name (or its first three letters) stands for.
    static func month(named name: String) -> Int? {
        let english: [Int: String] = [1: "january", 2: "february", 3: "march", 5: "may", 6: "june", 7: "july", 10: "october",
                                      12: "december"]
        let names = monthNames.enumerated().map { [$0.element] + (english[$0.offset + 1].map { [$0] } ?? []) }
        guard name.count >= 3 else { return nil }
        return names.firstIndex { forms in forms.contains { $0 == name || $0.hasPrefix(name) && name.count <= 4 } }.map { $0 + 1 }
    }

    /// `01.12.2025`: the day as a Norwegian reads it.
    public var norwegian: String { String(format: "%02d.%02d.%04d", day, month, year) }
}
