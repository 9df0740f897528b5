import Foundation

/// A Norwegian fødselsnummer in any of its forms: 11 digits, a birth date and two mod-11
/// control digits.
///
/// The forms found in letters: the ordinary number; the D-number (day + 40: people without a
/// permanent Norwegian address); the H-number (month + 40: a help number health services give
/// someone whose number they do not know); the synthetic numbers of test data (month + 80);
/// and a D-number combined with either month form. Numbers issued from 2032 may use more values
/// for the first control digit (see ``controlsValid(_:)``).
///
/// The digits are kept private: `description` and `masked` show only the birth date part, so a
/// value can be printed or logged without leaking the number.
public struct Fodselsnummer: Sendable, Hashable, CustomStringConvertible {
    /// The 11 digits. Use only where the number itself is needed (matching, encryption).
    public let digits: String
    /// The birth date encoded in the number.
    public let birthDate: DateComponents
    /// True for a D-number (first digit raised by 4: people without a permanent Norwegian address).
    public let isDNumber: Bool
    /// Which month series the number belongs to.
    public let series: Series
    /// True when the first control digit is valid only by the rule used from 2032.
    public let usesControlRule2032: Bool

    /// The month part of a number: the birth month itself, or raised to mark a kind of number.
    public enum Series: Int, Sendable, Hashable, CaseIterable {
        /// The birth month as it is.
        case ordinary = 0
        /// Month + 40: an H-number (hjelpenummer).
        case hNumber = 40
        /// Month + 80: a synthetic number from test data (Skatteetaten's Test-Norge).
        case synthetic = 80

        /// How much the month is raised by.
        public var monthOffset: Int { rawValue }
    }

    /// Why a string is not a valid fødselsnummer.
    public enum Problem: UserFacingError, Sendable, Equatable {
        case notElevenDigits
        case impossibleDate
        case wrongControlDigits

        public var errorCode: String {
            switch self {
            case .notElevenDigits: "fnrLength"
            case .impossibleDate: "fnrDate"
            case .wrongControlDigits: "fnrControl"
            }
        }

        public var userMessage: UserMessage {
            switch self {
            case .notElevenDigits:
                UserMessage(nb: "Et fødselsnummer har 11 sifre.", en: "A fødselsnummer has 11 digits.")
            case .impossibleDate:
                UserMessage(nb: "De seks første sifrene er ingen gyldig dato.", en: "The first six digits are not a valid date.")
            case .wrongControlDigits:
                UserMessage(nb: "Kontrollsifrene stemmer ikke (skrivefeil?).", en: "The control digits do not match (a typo?).")
            }
        }
    }

    /// Parses and validates; spaces, dots and dashes between digits are allowed ("260187 04454",
    /// "260187-04454").
    public init(_ text: String) throws(Problem) {
        let digits = text.filter { !$0.isWhitespace && !".-\u{2010}\u{2011}\u{2013}".contains($0) }
        guard digits.count == 11, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .notElevenDigits }
        let d = digits.compactMap { $0.wholeNumberValue }
        guard let rule2032 = Self.controlsValid(d) else { throw .wrongControlDigits }
        var day = d[0] * 10 + d[1]
        var month = d[2] * 10 + d[3]
        let isD = day > 40
        if isD { day -= 40 }
        let series: Series
        switch month {
        case 81...92: series = .synthetic
        case 41...52: series = .hNumber
        default: series = .ordinary
        }
        month -= series.monthOffset
        let yy = d[4] * 10 + d[5]
        let individual = d[6] * 100 + d[7] * 10 + d[8]
        guard let year = Self.birthYear(yy: yy, individual: individual, month: month, day: day) else { throw .impossibleDate }
        self.digits = digits
        self.isDNumber = isD
        self.series = series
        self.usesControlRule2032 = rule2032
        self.birthDate = DateComponents(year: year, month: month, day: day)
    }

    static let firstWeights = [3, 7, 6, 1, 8, 9, 4, 5, 2]
    static let secondWeights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]

    /// Whether the two control digits of `d` (11 digits) are right: nil when they are not, else
    /// whether the first one is right only by the rule used from 2032.
    ///
    /// The first control digit k1 is right when (3·d1 + 7·d2 + 6·d3 + 1·d4 + 8·d5 + 9·d6 + 4·d7 +
    /// 5·d8 + 2·d9 + k1) mod 11 is 0 (every number issued before 2032), or, for numbers issued
    /// from 1 January 2032, 0, 1, 2 or 3. The second one k2 is unchanged: (5·d1 + 4·d2 + 3·d3 +
    /// 2·d4 + 7·d5 + 6·d6 + 5·d7 + 4·d8 + 3·d9 + 2·k1 + k2) mod 11 is 0.
    /// Source: Skatteetaten, «Nye fødselsnummer og d-nummer fra 2032» ("Ny kontrollberegning vil
    /// akseptere 0, 1, 2 og 3 som gyldige verdier"),
    /// https://www.skatteetaten.no/deling/opplysninger/folkeregisteropplysninger/pid/ , with the
    /// calculation in Skatteetaten's technical description «Nytt fødselsnummer fra 2032»,
    /// https://skatteetaten.github.io/folkeregisteret-api-dokumentasjon/nytt-fodselsnummer-fra-2032/
    public static func controlsValid(_ d: [Int]) -> Bool? {
        guard d.count == 11 else { return nil }
        let first = (zip(d.prefix(9), firstWeights).reduce(0) { $0 + $1.0 * $1.1 } + d[9]) % 11
        let second = (zip(d.prefix(10), secondWeights).reduce(0) { $0 + $1.0 * $1.1 } + d[10]) % 11
        guard second == 0, (0...3).contains(first) else { return nil }
        return first != 0
    }

    /// The first valid number for the date `ddmmyy` whose individual number is `from` or more and
    /// whose first control sum leaves `remainder` (for examples, samples and tests); nil when none.
    public static func first(bornOn ddmmyy: String, from individual: Int = 0, remainder: Int = 0) -> String? {
        let date = ddmmyy.compactMap(\.wholeNumberValue)
        guard date.count == 6, (0...999).contains(individual) else { return nil }
        for candidate in individual...999 {
            let first9 = date + [candidate / 100, candidate / 10 % 10, candidate % 10]
            if let (k1, k2) = controlDigits(first9, remainder: remainder) { return (first9 + [k1, k2]).map(String.init).joined() }
        }
        return nil
    }

    /// The two control digits for the first nine by the rule used before 2032, or nil when no
    /// such number starts with them.
    public static func controlDigits(_ first9: [Int]) -> (Int, Int)? {
        controlDigits(first9, remainder: 0)
    }

    /// The two control digits for the first nine when the first control sum leaves `remainder`
    /// (0 before 2032; 0, 1, 2 or 3 from 2032), or nil when the first control digit would be 10
    /// or the second one 10.
    public static func controlDigits(_ first9: [Int], remainder: Int) -> (Int, Int)? {
        guard first9.count == 9, (0...3).contains(remainder) else { return nil }
        let k1 = ((remainder - zip(first9, firstWeights).reduce(0) { $0 + $1.0 * $1.1 }) % 11 + 11) % 11
        guard k1 != 10 else { return nil }
        let k2 = (11 - zip(first9 + [k1], secondWeights).reduce(0) { $0 + $1.0 * $1.1 } % 11) % 11
        guard k2 != 10 else { return nil }
        return (k1, k2)
    }

    /// The century from the individual number, as the population register assigned it before
    /// 2032.
    static func year(yy: Int, individual: Int) -> Int? {
        switch individual {
        case 0...499: return 1900 + yy
        case 500...749 where yy >= 54: return 1800 + yy
        case 500...999 where yy <= 39: return 2000 + yy
        case 900...999 where yy >= 40: return 1900 + yy
        default: return nil
        }
    }

    /// The birth year: by the century rule of the individual number where it gives a real date;
    /// numbers issued from 2032 no longer tell the century, so otherwise the latest century in
    /// which the date exists and is not in the future. Nil when the date exists in none.
    static func birthYear(yy: Int, individual: Int, month: Int, day: Int) -> Int? {
        if let year = year(yy: yy, individual: individual), CalendarDate.isValid(year: year, month: month, day: day) {
            return year
        }
        let thisYear = Calendar(identifier: .gregorian).component(.year, from: Date())
        return [2000 + yy, 1900 + yy, 1800 + yy].first { $0 <= thisYear && CalendarDate.isValid(year: $0, month: month, day: day) }
    }

    /// A fødselsnummer in a text and where it stands: a range of the text's Unicode scalars.
    public struct Match: Sendable, Equatable {
        public let range: Range<Int>
        public let number: Fodselsnummer
    }

    /// Every valid fødselsnummer in `text` with its place, in order, in every way it is written:
    /// the 11 digits (`14038512324`, not inside a longer run of digits); the date and the
    /// personal number apart (`140385 12324`, with as many spaces as OCR put there, `140385-12324`,
    /// `140385.12324`); the date in groups too (`14 03 85 12324`, `14.03.85 12324`,
    /// `14.03.85-12324`); and the number broken by a line break anywhere in it (`140385⏎12324`,
    /// `1403851⏎2324`, `1403851-⏎2324`, or with the blank line OCR puts between paragraphs). The control digits must hold, so dates, phone, account
    /// and other numbers stay (`22 33 44 55`, `1709.72.43859`). The one detector: what is found
    /// here is what the classifier sees, what the library masks and seals, what `redact` hides,
    /// what the pages, the share page and pack, the calendar feed and the exports show masked, and
    /// what the language model never gets.
    public static func matches(in text: String) -> [Match] {
        let scalars = Array(text.unicodeScalars)
        var found: [Match] = []
        var i = 0
        while i < scalars.count {
            guard isDigit(scalars[i]), i == 0 || !isDigit(scalars[i - 1]) else { i += 1; continue }
            if let match = match(in: scalars, from: i) {
                found.append(match)
                i = match.range.upperBound
            } else {
                i += 1
            }
        }
        return found
    }

    /// The number written from `start` (a digit with no digit before it), if any.
    private static func match(in scalars: [Unicode.Scalar], from start: Int) -> Match? {
        var digits = ""
        // Where a separator stands (after how many digits), whether it holds a line break and
        // whether it is spaces alone.
        var separators: [(after: Int, lineBreak: Bool, spaces: Bool)] = []
        var j = start
        while j < scalars.count, digits.count < 11 {
            if isDigit(scalars[j]) {
                digits.unicodeScalars.append(scalars[j])
                j += 1
            } else if !digits.isEmpty, let (end, lineBreak, onlySpaces) = separator(in: scalars, at: j) {
                separators.append((digits.count, lineBreak, onlySpaces))
                j = end
            } else {
                break
            }
        }
        guard digits.count == 11, j >= scalars.count || !isDigit(scalars[j]) else { return nil }
        if !separators.isEmpty {
            let places = Set(separators.map(\.after))
            let grouped = places.isSubset(of: [2, 4, 6]) && (places.isDisjoint(with: [2, 4]) || places.isSuperset(of: [2, 4]))
            let broken = separators.count == 1 && separators[0].lineBreak
            // OCR spaces a number out where the print has no gap ("301 245 24349"): taken where a
            // label says a fødselsnummer follows, so other numbers stay.
            let spacedAfterLabel = separators.count <= 3 && separators.allSatisfy(\.spaces) && labelled(scalars, before: start)
            guard grouped || broken || spacedAfterLabel else { return nil }
            // Not a piece of a longer number written with separators ("12.140385 12324", "140385 12324.5").
            if start >= 2, numberJoiners.contains(scalars[start - 1]), isDigit(scalars[start - 2]) { return nil }
            if j + 1 < scalars.count, numberJoiners.contains(scalars[j]), isDigit(scalars[j + 1]) { return nil }
        }
        guard let number = try? Fodselsnummer(digits) else { return nil }
        return Match(range: start..<j, number: number)
    }

    /// The end of the separator that starts at `at`, whether it holds a line break and whether
    /// it is spaces alone: spaces, at most one `.`/`-`/`–`, at most two line breaks (one blank
    /// line: OCR sets a line apart as a paragraph), and a digit right after; nil when there is none.
    private static func separator(in scalars: [Unicode.Scalar], at: Int) -> (end: Int, lineBreak: Bool, spaces: Bool)? {
        var j = at, dashes = 0, breaks = 0
        while j < scalars.count, j - at < 12 {
            let c = scalars[j]
            if spaces.contains(c) {
            } else if marks.contains(c) {
                dashes += 1
            } else if c == "\r", j + 1 < scalars.count, scalars[j + 1] == "\n" {
                breaks += 1
                j += 1
            } else if lineBreaks.contains(c) {
                breaks += 1
            } else {
                break
            }
            guard dashes <= 1, breaks <= 2 else { return nil }
            j += 1
        }
        guard j > at, j < scalars.count, isDigit(scalars[j]) else { return nil }
        return (j, breaks > 0, breaks == 0 && dashes == 0)
    }

    /// Whether a label for a fødselsnummer ("f.nr.", "Fødselsnr.:", "fødselsnummer",
    /// "personnummer", "D-nummer") ends the text of the line before `start`, with at most a few
    /// characters between (": ", a table's gap).
    private static func labelled(_ scalars: [Unicode.Scalar], before start: Int) -> Bool {
        var k = start - 1
        var gap = 0
        // The gap after the label: spaces, ':' and '.'; a table's column gap may be wide.
        while k >= 0, !lineBreaks.contains(scalars[k]), spaces.contains(scalars[k]) || ":.".unicodeScalars.contains(scalars[k]) {
            k -= 1
            gap += 1
        }
        guard gap <= 16 else { return false }
        var text = ""
        while k >= 0, text.unicodeScalars.count < 24, !lineBreaks.contains(scalars[k]) {
            let c = scalars[k]
            guard c.properties.isAlphabetic || spaces.contains(c) || marks.contains(c) else { break }
            text.unicodeScalars.insert(c, at: text.unicodeScalars.startIndex)
            k -= 1
        }
        // Whole words only ("f. nr." is two): the last word, or the last two written together.
        let words = text.lowercased().unicodeScalars.filter { !marks.contains($0) }
            .split(whereSeparator: { spaces.contains($0) }).map { String(String.UnicodeScalarView($0)) }
        guard let last = words.last else { return false }
        return fodselsnummerLabels.contains(last) || (words.count >= 2 && fodselsnummerLabels.contains(words[words.count - 2] + last))
    }

    /// The labels, lower case without their dots and dashes: "f.nr." is "fnr", "D-nummer" is "dnummer".
    private static let fodselsnummerLabels: Set<String> = ["fnr", "fødselsnr", "fødselsnummer", "fodselsnr", "fodselsnummer",
                                              "personnr", "personnummer", "persnr", "dnr", "dnummer", "hnummer"]

    private static let spaces: Set<Unicode.Scalar> = [" ", "\t", "\u{A0}", "\u{202F}", "\u{2009}"]
    private static let marks: Set<Unicode.Scalar> = [".", "-", "\u{2010}", "\u{2011}", "\u{2013}"]
    private static let lineBreaks: Set<Unicode.Scalar> = ["\n", "\r", "\u{0B}", "\u{0C}", "\u{2028}", "\u{2029}"]
    /// What joins the parts of other numbers (a decimal point, an account number's dots, a range).
    private static let numberJoiners: Set<Unicode.Scalar> = [".", ",", "-", "\u{2013}", "/", ":"]

    /// The different numbers in `text`, in the order they first stand there.
    public static func numbers(in text: String) -> [Fodselsnummer] {
        var found: [Fodselsnummer] = []
        for match in matches(in: text) where !found.contains(match.number) { found.append(match.number) }
        return found
    }

    private static func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

    /// `DDMMYY •••••`: the birth date digits, the personal number hidden (see ``Redaction``).
    public var masked: String { Redaction.mask(self) }

    public var description: String { masked }

    /// The birth date as `YYYY-MM-DD`.
    public var birthDateISO: String {
        String(format: "%04d-%02d-%02d", birthDate.year ?? 0, birthDate.month ?? 0, birthDate.day ?? 0)
    }
}

