import ArkivatorCore
import Foundation

// MARK: - Reading the text into tokens

extension SearchQuery {
    /// Splits the text into terms, operators and parentheses; repairs quotation marks and
    /// parentheses and enforces the word and nesting limits.
    struct Lexer {
        enum Token: Equatable {
            case term(Node)
            case and, or, not
            /// `-` right before a word, phrase or parenthesis.
            case negate
            case open, close
        }

        /// Characters that start or end a phrase.
        static let quotes: Set<Unicode.Scalar> = ["\"", "\u{201C}", "\u{201D}", "\u{201E}", "\u{AB}", "\u{BB}"]

        private let scalars: [Unicode.Scalar]
        private var position = 0
        private var wordCount = 0
        private var depth = 0
        private var ignoredOpenings = 0
        private var truncated = false
        private(set) var tokens: [Token] = []
        private(set) var notes: [UserMessage] = []

        init(_ text: String) {
            scalars = Array(text.unicodeScalars)
        }

        /// A letter or digit; a combining mark too when it continues a word (not a variation
        /// selector, as after an emoji).
        static func isWordScalar(_ scalar: Unicode.Scalar, continuing: Bool = false) -> Bool {
            let properties = scalar.properties
            if properties.isVariationSelector { return false }
            return switch properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber:
                true
            case .nonspacingMark, .spacingMark, .enclosingMark:
                continuing
            default:
                false
            }
        }

        mutating func run() {
            while position < scalars.count, !truncated {
                let scalar = scalars[position]
                if scalar.properties.isWhitespace {
                    position += 1
                } else if Self.quotes.contains(scalar) {
                    readPhrase()
                } else if scalar == "(" {
                    position += 1
                    if depth < SearchQuery.maximumNesting, ignoredOpenings == 0 {
                        depth += 1
                        tokens.append(.open)
                    } else {
                        ignoredOpenings += 1
                        notes.append(Message.nestedTooDeep)
                    }
                } else if scalar == ")" {
                    position += 1
                    if ignoredOpenings > 0 {
                        ignoredOpenings -= 1
                    } else if depth > 0 {
                        depth -= 1
                        tokens.append(.close)
                    } else {
                        notes.append(Message.strayClosing)
                    }
                } else {
                    readChunk()
                }
            }
            if depth > 0, !truncated { notes.append(Message.missingClosing) }
        }

        private func isBoundary(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isWhitespace || scalar == "(" || scalar == ")" || Self.quotes.contains(scalar)
        }

        /// A phrase from an opening quotation mark to the next one, or to the end of the text.
        private mutating func readPhrase() {
            position += 1
            let start = position
            while position < scalars.count, !Self.quotes.contains(scalars[position]) { position += 1 }
            let content = scalars[start..<position]
            let closed = position < scalars.count
            if closed { position += 1 }
            var pieces: [[Unicode.Scalar]] = []
            var current: [Unicode.Scalar] = []
            for scalar in content {
                if Self.isWordScalar(scalar, continuing: !current.isEmpty) {
                    current.append(scalar)
                } else if !current.isEmpty {
                    pieces.append(current)
                    current = []
                }
            }
            if !current.isEmpty { pieces.append(current) }
            let words = take(pieces)
            guard !words.isEmpty else { return }
            if !closed, !truncated { notes.append(Message.unclosedQuote) }
            tokens.append(.term(.phrase(words)))
        }

        /// A run of characters up to whitespace, a parenthesis or a quotation mark: an operator,
        /// or a term with perhaps a leading `-` and a trailing `*`.
        private mutating func readChunk() {
            let start = position
            while position < scalars.count, !isBoundary(scalars[position]) { position += 1 }
            let chunk = scalars[start..<position]
            switch String(String.UnicodeScalarView(chunk)) {
            case "AND": tokens.append(.and); return
            case "OR": tokens.append(.or); return
            case "NOT": tokens.append(.not); return
            default: break
            }
            let rest = chunk.drop(while: { $0 == "-" })
            if rest.count < chunk.count {
                if let first = rest.first, Self.isWordScalar(first) {
                    tokens.append(.negate)
                } else if rest.isEmpty, position < scalars.count,
                          scalars[position] == "(" || Self.quotes.contains(scalars[position]) {
                    tokens.append(.negate)
                    return
                }
            }
            readTerm(rest)
        }

        private mutating func readTerm(_ text: ArraySlice<Unicode.Scalar>) {
            let lastLetter = text.lastIndex(where: { Self.isWordScalar($0) })
            var pieces: [[Unicode.Scalar]] = []
            var current: [Unicode.Scalar] = []
            var isPrefix = false
            var strayStar = false
            for index in text.indices {
                let scalar = text[index]
                if Self.isWordScalar(scalar, continuing: !current.isEmpty) {
                    current.append(scalar)
                    continue
                }
                if scalar == "*", !isPrefix {
                    let letters = current.count(where: { Self.isWordScalar($0) })
                    if letters >= 2, lastLetter.map({ $0 < index }) ?? true {
                        isPrefix = true
                    } else {
                        strayStar = true
                    }
                }
                if !current.isEmpty {
                    pieces.append(current)
                    current = []
                }
            }
            if !current.isEmpty { pieces.append(current) }
            if isPrefix, pieces.count > 1 {
                isPrefix = false
                strayStar = true
            }
            if strayStar { notes.append(Message.strayStar) }
            let words = take(pieces)
            guard let first = words.first else { return }
            if words.count > 1 {
                tokens.append(.term(.phrase(words)))
            } else {
                tokens.append(.term(isPrefix ? .prefix(first) : .word(first)))
            }
        }

        /// The words of `pieces`, lower-cased, as far as the word limit allows.
        private mutating func take(_ pieces: [[Unicode.Scalar]]) -> [String] {
            let room = SearchQuery.maximumWords - wordCount
            var kept = pieces
            if pieces.count > room {
                kept = Array(pieces.prefix(max(room, 0)))
                truncated = true
                notes.append(Message.tooLong)
            }
            wordCount += kept.count
            return kept.map { String(String.UnicodeScalarView($0)).lowercased() }
        }
    }
}
