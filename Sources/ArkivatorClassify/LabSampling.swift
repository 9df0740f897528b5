import ArkivatorCore

/// When a laboratory's samples were taken, as its letter prints it («Prøvetatt: 17.06.2025»,
/// «Prøvedato 17. juni 2025», in Nynorsk «Prøve teken: 04.12.2024», or in a sentence, «blodprøvene som
/// ble tatt hos oss 18.08.2025»): the day a value belongs to, which is not the letter's own date
/// where both stand.
public enum LabSampling {
    /// Words on the line that gives the sampling day.
    static let words = ["prøvetatt", "prøve tatt", "prøvetaking", "prøvedato", "prøvetakingsdato", "tatt dato", "tatt:", "prøvetatt dato",
                        "prøve teken", "prøveteken", "teken:", "sample taken", "sampled"]

    /// Words that say, in a sentence about the samples ("blodprøvene som ble tatt hos oss
    /// 18.08.2025", "prøvene vart tekne 3. mars"), that they were taken.
    static let taken: Set<String> = ["tatt", "tekne", "teke", "teken", "tatte"]

    /// The sampling day the text prints, the first such line's; nil when it prints none. A
    /// sentence about the samples being taken gives it too, its date on the line or the next.
    public static func date(in text: String) -> CalendarDate? {
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\u{0C}" }).map(String.init)
        for (index, line) in lines.enumerated() {
            let lower = line.lowercased()
            if words.contains(where: lower.contains) {
                if let match = NorwegianDate.find(in: line).first { return match.date }
                continue
            }
            guard lower.contains("prøv"), saysTaken(lower) else { continue }
            if let match = NorwegianDate.find(in: line).first { return match.date }
            if index + 1 < lines.count, let match = NorwegianDate.find(in: lines[index + 1]).first { return match.date }
        }
        return nil
    }

    static func saysTaken(_ lower: String) -> Bool {
        lower.split(whereSeparator: { !$0.isLetter }).contains { taken.contains(String($0)) }
    }
}
