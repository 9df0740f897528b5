/// A file or folder name as printed in a line or a log: control characters shown escaped, so a
/// name can neither start a new line (and forge a "✔ …" line of its own) nor send a terminal
/// escape sequence (colours, a moved cursor, a changed title). The one rule for every line the
/// command line prints or logs and every watch and serve log line that carries a name.
///
/// `brev\n✔ falsk.png` is shown as `brev\n✔ falsk.png` with a visible backslash and `n`; an ESC
/// as `\u{1B}`. Line and paragraph separators and the marks that reverse the direction of text
/// are escaped too (they can make a name read as something else). A fødselsnummer in the name is
/// masked (``Redaction``), so no line printed or logged from a name carries one. Everything else is
/// left as it is.
public enum ShownName {
    /// `name` with every fødselsnummer masked and every control character escaped.
    public static func of(_ raw: String) -> String {
        escaped(Redaction.redact(raw))
    }

    /// `text` with every control character escaped (numbers left as they are).
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                shown.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            default: shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return shown
    }

    /// A message of one or more lines: its line breaks kept, every other control character escaped
    /// and every fødselsnummer masked (so no text taken from outside, such as a system's error
    /// description, can recolour the terminal). Names in it should have been shown with ``of(_:)``.
    public static func lines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { of(String($0)) }.joined(separator: "\n")
    }

    /// Text of one or more lines as printed: line breaks kept, every other control character
    /// escaped, numbers left as they are (the command line's one door to standard output).
    public static func escapedLines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 != "\n" && needsEscape($0) }) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: "\n")
    }

    /// C0 and C1 controls, DEL, the line and paragraph separators and the bidirectional marks.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x2028, 0x2029: true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: true
        default: false
        }
    }
}
