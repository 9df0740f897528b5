import Foundation

/// Norwegian typography that OCR models get wrong in the same way every time.
enum Typography {
    /// A dash standing alone in a line is a bullet (at the start) or a tankestrek (between words):
    /// an en dash. Only between two numbers ("20 - 42") is it a plain hyphen.
    static func normalizeDashes(_ line: inout [PageLayout.Word]) {
        let startsWithDigit = { (word: PageLayout.Word) in word.text.unicodeScalars.first.map { ("0"..."9").contains($0) } ?? false }
        for index in line.indices where ["-", "–", "—", "--"].contains(line[index].text) {
            let betweenNumbers = index > 0 && index + 1 < line.count
                && startsWithDigit(line[index - 1]) && startsWithDigit(line[index + 1])
            line[index].text = betweenNumbers ? "-" : "–"
        }
    }

    /// A free-standing dash is a tankestrek, an en dash ("–"); Norwegian text does not use em dashes.
    /// A short number range ("1-2", "10-14", a reference range "(2,9-6,1)", "3,5-4,4") also takes
    /// an en dash. Dates, codes and hyphenated words keep their hyphens.
    static func normalized(_ word: String) -> String {
        let word = typewriterSigns(word)
        let scalars = Array(word.unicodeScalars)
        guard let dash = scalars.firstIndex(where: { $0 == "-" }),
              scalars.filter({ $0 == "-" }).count == 1 else { return word }
        let isDigit = { (s: Unicode.Scalar) in ("0"..."9").contains(s) }
        var number = Array(scalars[..<dash])
        if number.first == "(" { number.removeFirst() }
        var after = Array(scalars[(dash + 1)...])
        while let last = after.last, [",", ".", ")", ";", ":"].contains(last) { after.removeLast() }
        // Up to three digits, or a decimal number with its comma ("2,9", "13,4").
        func isShortNumber(_ part: [Unicode.Scalar]) -> Bool {
            let pieces = part.split(separator: ",", omittingEmptySubsequences: false)
            guard let whole = pieces.first, (1...3).contains(whole.count), whole.allSatisfy(isDigit) else { return false }
            return pieces.count == 1 || (pieces.count == 2 && (1...2).contains(pieces[1].count) && pieces[1].allSatisfy(isDigit))
        }
        guard isShortNumber(number), isShortNumber(after) else { return word }
        return String(String.UnicodeScalarView(scalars[..<dash])) + "–" + String(String.UnicodeScalarView(scalars[(dash + 1)...]))
    }

    /// Signs of the typewriter that the model reads as others: a hyphen after a word read as "="
    /// or "=-" ("Hushold=", "jødi=-"; no word ends in an equals sign), and the section sign read
    /// as a dollar ("($ 3", "$ 8-2"; Norwegian letters write no dollar alone before a number).
    static func typewriterSigns(_ word: String) -> String {
        var word = word
        if word.hasSuffix("=-") { word.removeLast(2); word += "-" }
        if word.count >= 3, word.hasSuffix("="), word.dropLast().last?.isLetter == true { word.removeLast(); word += "-" }
        if word == "$" || word == "($" { word = word.replacingOccurrences(of: "$", with: "§") }
        return word
    }

    /// A list's number "1." read as the letter "l." (typewriters print the digit one as a small
    /// "l"): a word that is "l." alone, or "l.," or "l.)", is the number. After a number it stays
    /// a litre ("2 l.").
    static func listNumeral(_ word: String, after previous: String?) -> String {
        guard word.hasPrefix("l."), word.count <= 3, word.dropFirst(2).allSatisfy({ ",;:)".contains($0) }) else { return word }
        if let previous, previous.last?.isNumber == true || previous.first?.isNumber == true { return word }
        return "1" + word.dropFirst()
    }
}
