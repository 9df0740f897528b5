/// What an OCR token looks like: a word, a number, or noise read from a mark (a pen stroke, a
/// dashed line, a stamp, a tick in the margin).
public enum TokenShape {
    /// The letters (or digits) a token counts when it looks like a word or a number, 0 when it
    /// is only signs, nil when it looks like noise.
    /// Quotes, brackets and end punctuation around it, and a hyphen at its end, are left aside.
    /// A word is letters in lower case, with a capital first, or, from four letters on, all in
    /// capitals, and may join such parts with hyphens (an abbreviation of two or three capitals
    /// too, joined to a word in small letters: "LIS-lege"); a number is digits with . , / - : between.
    public static func wordLetters(_ token: String) -> Int? {
        var core = Substring(token)
        while let first = core.first, leading.contains(first) { core = core.dropFirst() }
        while let last = core.last, trailing.contains(last) { core = core.dropLast() }
        guard !core.isEmpty else { return 0 }
        if core.allSatisfy({ $0.isASCII && $0.isNumber || numberSigns.contains($0) }) {
            return core.filter(\.isNumber).count
        }
        var letters = 0
        let parts = core.split(separator: "-", omittingEmptySubsequences: false)
        // An abbreviation joined to a word ("LIS-lege", "CT-undersøkelse") is a word.
        let joinedToWord = parts.count >= 2 && parts.contains { $0.count >= 3 && $0.allSatisfy(\.isLowercase) }
        for part in parts {
            guard !part.isEmpty, part.allSatisfy(\.isLetter) else { return nil }
            let rest = part.dropFirst()
            let lowerOrTitle = rest.allSatisfy(\.isLowercase)
            if lowerOrTitle || (part.count >= 4 && part.allSatisfy(\.isUppercase))
                || (joinedToWord && part.count >= 2 && part.allSatisfy(\.isUppercase)) {
                letters += part.count
            } else {
                // Two or three capitals, or capitals and small letters mixed: mostly noise read
                // from marks, seldom an abbreviation.
                return nil
            }
        }
        return letters
    }

    /// Whether a token, standing apart at the end of a typed line or on a line of its own, is a
    /// mark rather than text: noise (``wordLetters(_:)`` nil) without digits and without a "." or
    /// "/" inside (reference codes such as "J.No.", "151.D.3." and "Mir/N" are text), signs
    /// without letters or digits other than dashes and dots, or one letter alone or with a sign
    /// other than a full stop ("E", "Å:"; "P." is an initial).
    /// Whether a token may be a number whose groups of digits Tesseract read as one word: four
    /// digits or more, a decimal comma with its decimals after them, and one sign of punctuation
    /// at its end ("1125,00", "33511100", "975000.").
    static func mayBeDigitGroups(_ token: String) -> Bool {
        token.count >= 4 && token.wholeMatch(of: /[0-9]{4,}(?:,[0-9]{1,2})?[-.,;:)]?/) != nil
    }

    static func isMark(_ token: String) -> Bool {
        guard let letters = wordLetters(token) else {
            guard !dashes.contains(token), !token.contains(where: \.isNumber) else { return false }
            let inner = token.dropFirst().dropLast()
            return !inner.contains(".") && !inner.contains("/")
        }
        if letters == 0 { return !token.allSatisfy { dashes.contains(String($0)) || $0 == "." } }
        return letters == 1 && token.contains(where: \.isLetter) && !token.hasSuffix(".")
    }

    private static let dashes: Set<String> = ["-", "–", "—", "--"]
    private static let leading: Set<Character> = ["\"", "'", "«", "»", "„", "“", "”", "‘", "’", "(", "["]
    private static let trailing: Set<Character> = [".", ",", ";", ":", "!", "?", ")", "]", "\"", "'", "«", "»", "”", "’", "-"]
    private static let numberSigns: Set<Character> = [".", ",", "/", "-", ":"]
}
