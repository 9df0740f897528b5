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
}
