import ArkivatorCore
import ArkivatorLibrary
import ArkivatorLLM
import ArkivatorPipeline
import Foundation

/// The chosen letters as one plain text for an AI assistant: a line on what it is, then each
/// letter's header (date, type, sender, title) and text, with names and numbers replaced by
/// placeholders (``Pseudonyms``, over the whole text, so a name is the same placeholder in every
/// letter).
struct ShareTextBundle {
    let text: String

    /// - Parameters:
    ///   - letters: in the order they are to stand, read with their numbers revealed.
    ///   - names: the names to replace (the household's, and those the letters concern).
    ///   - known: numbers to hide however OCR split them.
    init(letters: [LibraryDocument], names: [String], known: Set<String>) {
        var parts = ["""
            Brev fra helsetjenesten, delt fra Arkivator. Navn er byttet ut med [NAVN-1], [NAVN-2] …, \
            og fødselsnummer med [FNR-1], [FNR-2] ….
            (Letters from the health services, shared from Arkivator. Names are replaced by [NAVN-1], \
            [NAVN-2] …, and national ID numbers by [FNR-1], [FNR-2] ….)
            """]
        for (index, letter) in letters.enumerated() {
            let body = letter.text.replacingOccurrences(of: "\u{0C}", with: "\n\n")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            parts.append("""
                === Brev \(index + 1) av \(letters.count) ===
                Dato: \(letter.documentDate)
                Type: \(letter.docType.titleWord)
                Avsender: \(letter.institution ?? "–")
                Tittel: \(letter.title)

                \(body)
                """)
        }
        let hidden = Pseudonyms(parts.joined(separator: "\n\n") + "\n", names: Self.distinct(names)).text
        text = Self.withoutMasks(Redaction.redact(hidden, known: known))
    }

    /// The names, each once, longest first is left to ``Pseudonyms``.
    static func distinct(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
    }

    /// A number the library had already masked (`DDMMYY •••••`), or one hidden digit by digit
    /// because OCR split it, as `[FNR]`: the birth date goes too.
    static func withoutMasks(_ text: String) -> String {
        // `DDMMYY •••••` as the library masks, or 11 `•` with what OCR read between them; a
        // bullet of a list stays.
        let pattern = "[0-9]{6}[ \\t]*•{5}|•(?:[ \\t.\\-–/:,]*•){10}"
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return text }
        return regex.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "[FNR]")
    }
}
