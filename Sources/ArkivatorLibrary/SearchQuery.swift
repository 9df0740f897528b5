import ArkivatorCore
import Foundation

/// What a person typed into the search box, understood as a tree of terms and operators.
///
/// ``parse(_:stopwords:)`` accepts any text and never fails: operators in the wrong place,
/// unbalanced parentheses or quotation marks and stray punctuation are repaired or dropped, and
/// each repair is explained in ``notes``. ``ftsExpression(expand:)`` then writes the tree as an
/// SQLite FTS5 `MATCH` expression in which every term is a quoted string, so no user text can
/// cause an FTS5 syntax error.
///
/// The syntax, in short:
/// - Terms next to each other must all match (implicit `AND`).
/// - `AND`, `OR` and `NOT` are operators only when written in capitals; `and`, `or`, `not` are words.
/// - `-kne` leaves out letters that contain «kne», like `NOT kne`.
/// - Parentheses group: `(kne OR hofte) operasjon`.
/// - `"time hos fastlegen"` (also `“…”`, `«…»`) is a phrase: the words next to each other, in order.
/// - `orto*` is a prefix: any word beginning with «orto». `*` counts only right after two or more
///   letters or digits.
/// - Words are runs of letters and digits; any other character splits them, and a word that
///   splits (`e-resept`, `St.Olavs`, `12.03.2024`) is searched as a phrase.
public struct SearchQuery: Sendable, Equatable {
    /// One part of a query.
    public indirect enum Node: Sendable, Equatable {
        /// A bare word, lower-cased; ``SearchQuery/ftsExpression(expand:)`` may add alternatives
        /// (stems, compound parts) for it.
        case word(String)
        /// The start of a word (`orto*` is `prefix("orto")`), lower-cased; never expanded.
        case prefix(String)
        /// Words that must stand next to each other, in this order, lower-cased: a quoted phrase,
        /// or one word the tokenizer would split (`e-resept` is `phrase(["e", "resept"])`).
        case phrase([String])
        /// Every part must match (two or more parts).
        case and([Node])
        /// At least one part must match (two or more parts).
        case or([Node])
        /// The first part must match and the second must not (FTS5 `NOT` is binary).
        case not(Node, excluding: Node)
    }

    /// The query, or nil when nothing searchable is left: empty text, only operators or
    /// punctuation, only parts to leave out (`NOT kne`, `-kne`) or only stopwords.
    public let root: Node?

    /// What was not taken literally, or why nothing can be searched, in plain words; empty when
    /// the text was understood exactly as written. When ``root`` is nil the first note says why.
    /// Repeats no words typed by the user except operators and the stopwords that were left out.
    public let notes: [UserMessage]

    /// The most words a query keeps (each word of a phrase counts); the rest of the text is ignored.
    public static let maximumWords = 64

    /// The deepest nesting of parentheses kept; deeper ones are ignored (FTS5's parser has a small
    /// fixed stack).
    public static let maximumNesting = 6

    /// A query from its parts, as ``parse(_:stopwords:)`` builds it.
    public init(root: Node?, notes: [UserMessage] = []) {
        self.root = root
        self.notes = notes
    }

    /// False only for text with no capital letter: looked for in the bytes, with A–Z and À–Þ
    /// (which hold the Norwegian capitals) for certain and any letter past them as a maybe.
    static func mayHaveCapitals(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if (0x41...0x5A).contains(byte) || byte >= 0xC4 || (previous == 0xC3 && (0x80...0x9E).contains(byte)) {
                return true
            }
            previous = byte
        }
        return false
    }

    /// Reads what a person typed. Never fails: see ``notes`` for what was repaired or ignored.
    ///
    /// - Parameters:
    ///   - text: The search text, as typed (any length; only the first ``maximumWords`` words count).
    ///   - stopwords: Common words (compared lower-cased) left out of a group of terms joined by
    ///     `AND` when at least one other term remains in it; kept inside phrases. A query of
    ///     nothing but stopwords has no ``root``.
    public static func parse(_ text: String, stopwords: Set<String> = []) -> SearchQuery {
        var lexer = Lexer(text.precomposedStringWithCanonicalMapping)
        lexer.run()
        // Lower-cased here only when a stopword may not be already (the library's own list is).
        let lowered = stopwords.contains(where: mayHaveCapitals) ? Set(stopwords.map { $0.lowercased() }) : stopwords
        var parser = Parser(tokens: lexer.tokens, stopwords: lowered)
        let result = parser.parseGroup(topLevel: true)

        // When nothing can be searched, why comes first: it is the one message a caller must show.
        var notes: [UserMessage] = []
        let root: Node?
        switch result {
        case .empty:
            root = nil
            notes.append(Message.noWords)
        case .negativeOnly:
            root = nil
            notes.append(Message.onlyExclusions)
        case .positive(let node):
            if node.positiveLeaves.allSatisfy(parser.isStopword) {
                root = nil
                notes.append(Message.onlyStopwords)
            } else {
                root = node
            }
        }
        notes.append(contentsOf: lexer.notes)
        notes.append(contentsOf: parser.notes)
        if !parser.droppedStopwords.isEmpty {
            notes.append(Message.stopwordsDropped(parser.droppedStopwords))
        }
        var unique: [UserMessage] = []
        for note in notes where !unique.contains(note) { unique.append(note) }
        return SearchQuery(root: root, notes: unique)
    }
}
