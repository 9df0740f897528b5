import Foundation

/// Diagnosis codes the model misreads with a digit for their letter (see ``NumberRepair``).
extension NumberRepair {
    /// "(163.9)", "…, 121.4" and "110 Essensiell hypertensjon" → I63.9, I21.4, I10: a diagnosis
    /// code of the heart and circulation (I00–I99) whose I was read as a one; with a point, an
    /// injury's S read as a five and an infection's B as an eight ("582.6" → S82.6). Norwegian
    /// numbers take a decimal comma, so a point inside marks a code.
    static func diagnosisCodes(_ line: inout [PageLayout.Word]) {
        for index in line.indices {
            guard line[index].text.count <= 9, line[index].text.contains(where: { "1l58".contains($0) }) else { continue }
            let (lead, core, trail) = split(line[index].text)
            guard let match = core.wholeMatch(of: /([1l58])(\d\d)((?:\.\d{1,2})?)/) else { continue }
            let decimal = !match.3.isEmpty
            // An injury's S or an infection's B read as a digit only where a point marks the code.
            let letter: String
            switch match.1 {
            case "5": letter = "S"
            case "8": letter = "B"
            default: letter = "I"
            }
            guard letter == "I" || decimal else { continue }
            let inBrackets = lead.hasSuffix("(") && trail.hasPrefix(")")
            let afterComma = index == line.count - 1 && index > 0 && line[index - 1].text.hasSuffix(",") && decimal
            // At a line's start before a diagnosis, after a dash or not ("148.0 – Paroksysmal").
            let name = line.count >= 2 && ["–", "-"].contains(line[1].text) ? 2 : 1
            let heading = index == 0 && line.count > name && startsDiagnosis(line[name...], letters: decimal ? 3 : 5)
            // Without a point, only in brackets after the name of a diagnosis: a word in small
            // letters, in a line that names no sum ("hypertensjon (I10)", not "egenandel (150)").
            let afterWord = index > 0 && line[index - 1].text.count >= 6
                && line[index - 1].text.allSatisfy { $0.isLetter && $0.isLowercase }
                && !line.contains { money.contains($0.text.lowercased().trimmingCharacters(in: .punctuationCharacters)) }
            guard (inBrackets && (decimal || afterWord)) || afterComma || heading else { continue }
            line[index].text = lead + letter + String(match.2) + String(match.3) + trail
        }
    }

    /// Words of a line about money, where a number in brackets is a sum.
    static let money: Set<String> = ["kr", "kroner", "nok", "beløp", "egenandel", "gebyr", "pris", "sum", "totalt", "betale", "betaler"]

    /// The words after a code at a line's start name a diagnosis: a word of at least `letters`
    /// letters, a capital and small ones, first, and no number among them.
    static func startsDiagnosis(_ words: ArraySlice<PageLayout.Word>, letters: Int) -> Bool {
        guard let word = words.first?.text else { return false }
        let first = word.trimmingCharacters(in: .punctuationCharacters)
        guard first.count >= letters, first.first?.isUppercase == true, first.dropFirst().allSatisfy({ $0.isLowercase }) else { return false }
        return !words.contains { $0.text.contains(where: \.isNumber) }
    }
}
