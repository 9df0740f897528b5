import ArkivatorCore

/// When a laboratory's samples were taken, as its letter prints it («Prøvetatt: 17.06.2025»,
/// «Prøvedato 17. juni 2025», in Nynorsk «Prøve teken: 04.12.2024»): the day a value belongs to, which is not the letter's own date
/// where both stand.
public enum LabSampling {
    /// Words on the line that gives the sampling day.
    static let words = ["prøvetatt", "prøve tatt", "prøvetaking", "prøvedato", "prøvetakingsdato", "tatt dato", "tatt:", "prøvetatt dato",
                        "prøve teken", "prøveteken", "teken:", "sample taken", "sampled"]

    /// The sampling day the text prints, the first such line's; nil when it prints none.
    public static func date(in text: String) -> CalendarDate? {
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\u{0C}" }) {
            let lower = line.lowercased()
            guard words.contains(where: lower.contains) else { continue }
            if let match = NorwegianDate.find(in: String(line)).first { return match.date }
        }
        return nil
    }
}
