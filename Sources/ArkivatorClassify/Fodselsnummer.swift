import ArkivatorCore

extension Fodselsnummer {
    /// Every valid fødselsnummer in a text (11 digits, or 6 and 5 with a space between).
    public static func occurrences(in text: String) -> [Fodselsnummer] {
        PersonMatcher.findFodselsnumre(in: LetterText(text))
    }

}
