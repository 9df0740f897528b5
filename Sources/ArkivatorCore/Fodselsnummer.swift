import Foundation

/// A Norwegian fødselsnummer (or D-number): 11 digits, a birth date and two mod-11 control digits.
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

    /// Parses and validates; spaces and dots between digits are allowed ("260187 04454").
    public init(_ text: String) throws(Problem) {
        let digits = text.filter { !$0.isWhitespace && $0 != "." }
        guard digits.count == 11, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .notElevenDigits }
        let d = digits.compactMap { $0.wholeNumberValue }
        guard let control = Self.controlDigits(Array(d.prefix(9))), control == (d[9], d[10]) else { throw .wrongControlDigits }
        var day = d[0] * 10 + d[1]
        let month = d[2] * 10 + d[3]
        let isD = day > 40
        if isD { day -= 40 }
        let yy = d[4] * 10 + d[5]
        let individual = d[6] * 100 + d[7] * 10 + d[8]
        guard let year = Self.year(yy: yy, individual: individual),
              CalendarDate.isValid(year: year, month: month, day: day) else { throw .impossibleDate }
        self.digits = digits
        self.isDNumber = isD
        self.birthDate = DateComponents(year: year, month: month, day: day)
    }

    /// The two control digits for the first nine, or nil when no valid number starts with them.
    public static func controlDigits(_ first9: [Int]) -> (Int, Int)? {
        guard first9.count == 9 else { return nil }
        let w1 = [3, 7, 6, 1, 8, 9, 4, 5, 2]
        let w2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]
        var k1 = 11 - zip(first9, w1).reduce(0) { $0 + $1.0 * $1.1 } % 11
        if k1 == 11 { k1 = 0 }
        guard k1 != 10 else { return nil }
        var k2 = 11 - zip(first9 + [k1], w2).reduce(0) { $0 + $1.0 * $1.1 } % 11
        if k2 == 11 { k2 = 0 }
        guard k2 != 10 else { return nil }
        return (k1, k2)
    }

    /// The century from the individual number, as the population register assigns it.
    static func year(yy: Int, individual: Int) -> Int? {
        switch individual {
        case 0...499: return 1900 + yy
        case 500...749 where yy >= 54: return 1800 + yy
        case 500...999 where yy <= 39: return 2000 + yy
        case 900...999 where yy >= 40: return 1900 + yy
        default: return nil
        }
    }

    /// A fødselsnummer in a text and where it stands: a range of the text's Unicode scalars.
    public struct Match: Sendable, Equatable {
        public let range: Range<Int>
        public let number: Fodselsnummer
    }

    /// Every valid fødselsnummer in `text` with its place, in order: 11 digits not inside a longer
    /// run of digits, or 6 and 5 with spaces between (`DDMMYY NNNNN`; OCR sometimes reads more
    /// than one). The one detector: what is found here is what the classifier sees, what the
    /// library masks and seals, what `redact` hides and what the language model never gets.
    public static func matches(in text: String) -> [Match] {
        let scalars = Array(text.unicodeScalars)
        var found: [Match] = []
        var i = 0
        while i < scalars.count {
            guard isDigit(scalars[i]), i == 0 || !isDigit(scalars[i - 1]) else { i += 1; continue }
            var digits = ""
            var j = i
            while j < scalars.count, digits.count < 11 {
                if isDigit(scalars[j]) {
                    digits.unicodeScalars.append(scalars[j])
                } else if scalars[j] == " ", digits.count == 6 {
                    // "DDMMYY NNNNN", with as many spaces as OCR put there.
                } else {
                    break
                }
                j += 1
            }
            if digits.count == 11, j >= scalars.count || !isDigit(scalars[j]),
               let number = try? Fodselsnummer(digits) {
                found.append(Match(range: i..<j, number: number))
            }
            i = max(j, i + 1)
        }
        return found
    }

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

