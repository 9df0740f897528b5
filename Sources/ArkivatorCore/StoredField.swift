/// The text fields a person can store, each with the most characters (Unicode scalars) it may
/// hold, checked in one place (``check(_:)``) by the library's own writes, so the command line,
/// the web pages and the API refuse alike, with the same sentence. No step that later reads a
/// field (file names, the share pack's index, search) then meets a value of unbounded length.
public enum StoredField: String, Sendable, CaseIterable {
    case title, person, institution, specialty, keywords, text, appointmentText, memberName, tokenName

    /// The most characters the field may hold.
    public var limit: Int {
        switch self {
        case .title: 300
        case .person, .memberName: 100
        case .institution, .specialty: 200
        case .keywords: 1_000
        // A letter of 100 pages read by OCR holds some 300,000.
        case .text: 1_000_000
        case .appointmentText: 500
        case .tokenName: 100
        }
    }

    /// The field as a form names it.
    var name: UserMessage {
        switch self {
        case .title: UserMessage(nb: "Tittel", en: "Title")
        case .person: UserMessage(nb: "Person", en: "Person")
        case .institution: UserMessage(nb: "Avsender", en: "Sender")
        case .specialty: UserMessage(nb: "Avdeling", en: "Department")
        case .keywords: UserMessage(nb: "Nøkkelord", en: "Keywords")
        case .text: UserMessage(nb: "Tekst", en: "Text")
        case .appointmentText: UserMessage(nb: "Sted, ta med eller endring av timen", en: "Place, what to bring or changing the appointment")
        case .memberName: UserMessage(nb: "Navn", en: "Name")
        case .tokenName: UserMessage(nb: "Navn på enheten", en: "Device name")
        }
    }

    /// `value` as a one-line field may hold it: control characters (ESC, BEL, a line break) and
    /// the invisible marks that turn text around (U+202E and its kin) become a space or nothing,
    /// so a title cannot colour a terminal, forge a line, or show itself backwards on a page.
    /// A letter's text keeps its lines (``text`` is not one line).
    public static func visible(_ value: String) -> String {
        var kept = String.UnicodeScalarView()
        var replaced = false
        for scalar in value.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control:
                replaced = true
                if kept.last != " " { kept.append(" ") }
            case .format where scalar.properties.isBidiControl || scalar.value == 0x200B || scalar.value == 0xFEFF:
                replaced = true
            default:
                // A space after a control character that became one is not doubled.
                if scalar == " ", replaced, kept.last == " " { continue }
                kept.append(scalar)
            }
        }
        return String(kept)
    }

    /// Throws ``FieldTooLong`` when `value` has more characters than the field may hold.
    public func check(_ value: String?) throws(FieldTooLong) {
        guard let value else { return }
        let length = value.unicodeScalars.count
        if length > limit { throw FieldTooLong(field: self, length: length) }
    }
}

/// A value longer than its field may hold: what happened and what to do.
public struct FieldTooLong: UserFacingError, Sendable, Equatable {
    public let field: StoredField
    /// The value's length in characters.
    public let length: Int

    public init(field: StoredField, length: Int) {
        self.field = field
        self.length = length
    }

    public var errorCode: String { "tooLong" }

    public var userMessage: UserMessage {
        let limit = field.limit
        return UserMessage(
            nb: "Feltet «\(field.name.norwegian)» har for mange tegn (\(Self.number(length, "\u{00A0}"))); "
                + "høyst \(Self.number(limit, "\u{00A0}")) tegn kan lagres. Gjør det kortere og lagre igjen.",
            en: "The field “\(field.name.english)” has too many characters (\(Self.number(length, ","))); "
                + "at most \(Self.number(limit, ",")) can be saved. Make it shorter and save again.")
    }

    /// `1 000 000` (Bokmål, with a no-break space) or `1,000,000`.
    static func number(_ value: Int, _ separator: String) -> String {
        let digits = Array(String(value))
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += separator }
            grouped.append(digit)
        }
        return grouped
    }
}
