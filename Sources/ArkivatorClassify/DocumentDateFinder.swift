import ArkivatorCore
import Foundation

/// Picks the letter's own date among all the dates in its text.
///
/// A labelled date ("Dato:", "Vår dato", "Fakturadato"), a place-comma-date ("Oslo, 3.11.2025")
/// and a date standing alone near the top are the letter's date. Birth dates, appointment,
/// admission, discharge, sampling, due and period dates are not, unless nothing else exists.
struct DocumentDateFinder {
    struct Candidate {
        var date: CalendarDate
        var score: Double
        var line: Int
    }

    /// The label words (`labels.json`): before the letter's own date, and before other dates.
    let labels: Vocabulary.Labels

    let scanDate: CalendarDate
    let birthDates: Set<CalendarDate>

    /// The best date and how sure the choice is; nil when the text holds no date at all.
    func choose(in text: LetterText) -> (date: CalendarDate, confidence: Double)? {
        var candidates: [Candidate] = []
        for (index, line) in text.lines.enumerated() {
            let damaged = NorwegianDate.findDamaged(in: line)
            // A date that reads whole only as part of a damaged one ("9.02.2024" in "1 9.02.2024")
            // is that one's damage, not a date of its own.
            let matches = NorwegianDate.find(in: line).filter { match in !damaged.contains { $0.range.overlaps(match.range) } }
            let scalars = Array(line.unicodeScalars)
            for (match, isDamaged) in matches.map({ ($0, false) }) + damaged.map({ ($0, true) }) {
                let before = String(String.UnicodeScalarView(scalars[..<match.range.lowerBound])).lowercased()
                let after = String(String.UnicodeScalarView(scalars[match.range.upperBound...])).lowercased()
                var score = score(before: before, after: after, matchesOnLine: matches.count + damaged.count, line: index,
                                  lineCount: text.lines.count)
                // A date read only after repairing OCR damage counts where it stands as the letter's
                // own (labelled, after the place, alone near the top), and a little less than one
                // printed whole.
                if isDamaged {
                    guard score >= Self.damagedDateFloor else { continue }
                    score -= 1
                }
                if birthDates.contains(match.date) { score -= 6 }
                if match.date > scanDate { score -= 2 }
                candidates.append(Candidate(date: match.date, score: score, line: index))
            }
        }
        guard let best = candidates.max(by: { ($0.score, -$0.line) < ($1.score, -$1.line) }) else { return nil }
        let confidence: Double = best.score >= 4 ? 0.95 : best.score >= 1.5 ? 0.8 : best.score >= 0 ? 0.6 : 0.35
        return (best.date, confidence)
    }

    /// The least score a date read after repair needs to count at all: a letter-date label, a place
    /// before it, or a line of its own near the top.
    static let damagedDateFloor = 4.5

    /// Labels of a reference to the other side's letter.
    static let theirReference = LetterText.theirReferenceLabels + ["deres brev", "dykkar brev"]

    private func score(before: String, after: String, matchesOnLine: Int, line: Int, lineCount: Int) -> Double {
        var score = 0.0
        let trimmedBefore = before.trimmingCharacters(in: .whitespaces)
        let trimmedAfter = after.trimmingCharacters(in: .whitespaces)
        let label = String(trimmedBefore.suffix(28))
        if labels.letterDate.contains(where: { label.hasSuffix($0 + ":") || label.hasSuffix($0) || label.hasSuffix($0 + " :") }),
           !labels.otherDate.contains(where: { label.contains($0) && !labels.letterDate.contains($0) }) {
            score += 6
        }
        // "Oslo, 3.11.2025": a place name and a comma, and the date ends the line. Where the
        // address column ran into the date's line ("2317 HAMAR Bodø, 3. juli 2025"), the place
        // is the one or two words of letters right before the comma: it still counts, a little less.
        if trimmedBefore.hasSuffix(","), trimmedAfter.isEmpty {
            let words = trimmedBefore.dropLast().split(separator: " ")
            let isPlace: (Substring) -> Bool = { $0.allSatisfy { $0.isLetter || $0 == "-" || $0 == "." } }
            if words.count <= 3, words.allSatisfy(isPlace) {
                score += 6
            } else if let last = words.last, isPlace(last), last.count >= 3 {
                score += 4
            }
        }
        // A date alone on its line.
        if trimmedBefore.isEmpty && trimmedAfter.isEmpty { score += 4 }
        for word in labels.otherDate where label.contains(word) || (word.count > 3 && trimmedAfter.hasPrefix(word)) {
            score -= 5
            break
        }
        // A date in the reference to the letter being answered ("Deres ref.: Tilvisning 19.07.2024")
        // is that letter's date, unless a date label follows the reference ("Deres ref.: Dato: …").
        if let reference = Self.theirReference.compactMap({ label.range(of: $0, options: .backwards)?.upperBound }).max(),
           !labels.letterDate.contains(where: { label[reference...].contains($0 + ":") }) {
            score -= 5
        }
        if trimmedAfter.hasPrefix("kl") || trimmedAfter.hasPrefix("–") || trimmedAfter.hasPrefix("-") { score -= 3 }
        if matchesOnLine > 1 { score -= 1.5 }
        // Table rows (a date first, then more text) are usually history, not the letter date.
        if trimmedBefore.isEmpty && !trimmedAfter.isEmpty { score -= 2 }
        // The letter's date stands near the top.
        score += line < 15 ? 1 : (line > lineCount - 4 ? -0.5 : -1)
        return score
    }
}
