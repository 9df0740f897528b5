import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// What a doctor reads first of shared lab results: per analysis, the latest value with its day,
/// range and flag, and the trend since the first value, with values in doubt marked. Drawn only
/// from the letters given (a share's own), so it says nothing the share does not hold.
public struct LabSummary: Sendable, Equatable {
    public struct Line: Sendable, Equatable {
        public var analysis: String
        /// The latest value as printed, its unit, day (`YYYY-MM-DD`), range and flag.
        public var value: String
        public var unit: String?
        public var day: String
        public var range: String?
        public var flag: String?
        /// The latest value may be misread, and no one has confirmed it.
        public var doubtful: Bool
        /// How many of the analysis's values are in doubt.
        public var doubtfulCount: Int
        public var count: Int
        /// The first value as printed and its day, when there is more than one value.
        public var first: (value: String, day: String)?
        /// -1, 0, 1: the latest value below, as or above the first (in the latest's unit; a value
        /// in another unit is left out unless the conversion is exact); nil with one value.
        public var direction: Int?

        public static func == (a: Line, b: Line) -> Bool {
            a.analysis == b.analysis && a.value == b.value && a.unit == b.unit && a.day == b.day && a.range == b.range
                && a.flag == b.flag && a.doubtful == b.doubtful && a.doubtfulCount == b.doubtfulCount && a.count == b.count
                && a.first?.value == b.first?.value && a.first?.day == b.first?.day && a.direction == b.direction
        }

        /// «opp fra 48 (10.01.2024), 3 målinger»; «én måling».
        public func trend(_ language: UILanguage) -> String {
            func say(_ norwegian: String, _ english: String) -> String { language == .english ? english : norwegian }
            guard let first, let direction else { return say("én måling", "one measurement") }
            let from = "\(first.value) (\(CalendarDate(iso: first.day).map { language == .english ? $0.iso : $0.norwegian } ?? first.day))"
            let word = switch direction {
            case 1: say("opp fra", "up from")
            case -1: say("ned fra", "down from")
            default: say("som", "as")
            }
            return "\(word) \(from), " + say("\(count) målinger", "\(count) measurements")
        }
    }

    public var lines: [Line]

    /// `readings`: by analysis, then day (as ``DocumentStore/labReadings(rows:)`` gives them).
    public init(_ readings: [LabReading]) {
        var groups: [(String, [LabReading])] = []
        for reading in readings {
            if let index = groups.firstIndex(where: { $0.0 == reading.entry.analysis }) {
                groups[index].1.append(reading)
            } else {
                groups.append((reading.entry.analysis, [reading]))
            }
        }
        lines = groups.compactMap { analysis, values in
            let sorted = values.sorted { ($0.day, $0.entry.start) < ($1.day, $1.entry.start) }
            guard let latest = sorted.last else { return nil }
            var line = Line(analysis: analysis, value: latest.entry.value, unit: latest.entry.unit, day: latest.day,
                            range: latest.entry.range, flag: latest.entry.flag, doubtful: latest.entry.inDoubt,
                            doubtfulCount: sorted.filter(\.entry.inDoubt).count, count: sorted.count, first: nil, direction: nil)
            if sorted.count >= 2, let first = sorted.first {
                line.first = (first.entry.value, first.day)
                if let now = LabNumber(printed: latest.entry.value)?.value, let then = LabNumber(printed: first.entry.value)?.value {
                    let before = first.entry.unit == latest.entry.unit ? then
                        : LabUnitConversion.convert(then, analysis: analysis, from: first.entry.unit ?? "", to: latest.entry.unit ?? "")
                    if let before { line.direction = now > before ? 1 : now < before ? -1 : 0 }
                }
            }
            return line
        }
    }
}
