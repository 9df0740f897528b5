/// How a fødselsnummer is hidden wherever arkivator shows or stores text: `DDMMYY •••••`, the
/// birth date kept (it says whose letter it is), the personal number gone. The one policy for the
/// family list, the library's masked text and index, `redact`, `ingest --redact`, the
/// archive's searchable PDF, `export` and the lines printed and logged; the numbers are found by
/// ``Fodselsnummer/matches(in:)``. (On page images a number's words get a black box instead.)
public enum Redaction {
    /// What stands in place of the five personal digits.
    public static let hiddenDigits = "•••••"

    /// `DDMMYY •••••`.
    public static func mask(_ number: Fodselsnummer) -> String {
        String(number.digits.prefix(6)) + " " + hiddenDigits
    }

    /// `text` with every fødselsnummer in it masked.
    public static func redact(_ text: String) -> String {
        let found = Fodselsnummer.matches(in: text)
        guard !found.isEmpty else { return text }
        var scalars = Array(text.unicodeScalars)
        for match in found.reversed() {
            scalars.replaceSubrange(match.range, with: Array(mask(match.number).unicodeScalars))
        }
        return String(String.UnicodeScalarView(scalars))
    }

    /// `text` with every fødselsnummer masked, and then every one of `known` (11 digits each)
    /// that still stands there however it is split (by spaces or the separators OCR reads
    /// between digits: "1709 7243859", "170972-43859") with all its digits made `•`. For numbers
    /// known to belong to the letter or the household, which OCR may have broken so the detector
    /// no longer reads them.
    public static func redact(_ text: String, known: Set<String>) -> String {
        let masked = redact(text)
        guard !known.isEmpty else { return masked }
        var scalars = Array(masked.unicodeScalars)
        var run: [Int] = []
        var hidden = false
        func flush() {
            defer { run = [] }
            guard run.count >= 11 else { return }
            let digits = String(String.UnicodeScalarView(run.map { scalars[$0] }))
            for number in known where number.count == 11 {
                var from = digits.startIndex
                while let found = digits.range(of: number, range: from..<digits.endIndex) {
                    let start = digits.distance(from: digits.startIndex, to: found.lowerBound)
                    for k in start..<(start + 11) { scalars[run[k]] = "•" }
                    hidden = true
                    from = found.upperBound
                }
            }
        }
        var gap = 0
        for (index, scalar) in scalars.enumerated() {
            if ("0"..."9").contains(scalar) {
                run.append(index)
                gap = 0
            } else if !run.isEmpty, " .-–/:,".unicodeScalars.contains(scalar), gap < 3 {
                gap += 1
            } else {
                flush()
                gap = 0
            }
        }
        flush()
        return hidden ? String(String.UnicodeScalarView(scalars)) : masked
    }
}
