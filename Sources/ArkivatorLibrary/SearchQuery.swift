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
        var parser = Parser(tokens: lexer.tokens, stopwords: Set(stopwords.map { $0.lowercased() }))
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

// MARK: - Building the tree

extension SearchQuery {
    /// Builds the tree from tokens, leniently: misplaced operators are dropped with a note.
    struct Parser {
        enum Operator: String { case and = "AND", or = "OR", not = "NOT" }

        /// What a group (the whole text, or one pair of parentheses) asks for.
        enum GroupResult {
            case empty
            case positive(Node)
            /// Only parts to leave out: the node is what to exclude.
            case negativeOnly(Node)
        }

        private enum Item {
            case operand(Node, negated: Bool)
            case op(Operator)
        }

        private struct Operand {
            var startsAlternative: Bool
            var negated: Bool
            var node: Node
        }

        private let tokens: [Lexer.Token]
        private var position = 0
        let stopwords: Set<String>
        private(set) var notes: [UserMessage] = []
        private(set) var droppedStopwords: [String] = []

        init(tokens: [Lexer.Token], stopwords: Set<String>) {
            self.tokens = tokens
            self.stopwords = stopwords
        }

        /// Reads tokens up to the matching `)` (or the end) and combines them.
        mutating func parseGroup(topLevel: Bool = false) -> GroupResult {
            var items: [Item] = []
            var dash = false
            while position < tokens.count {
                let token = tokens[position]
                position += 1
                switch token {
                case .close:
                    if !topLevel { return combine(items) }
                case .open:
                    switch parseGroup() {
                    case .empty: break
                    case .positive(let node): items.append(.operand(node, negated: dash))
                    case .negativeOnly(let node): items.append(.operand(node, negated: true))
                    }
                case .negate:
                    dash = true
                    continue
                case .term(let node):
                    items.append(.operand(node, negated: dash))
                case .and: items.append(.op(.and))
                case .or: items.append(.op(.or))
                case .not: items.append(.op(.not))
                }
                dash = false
            }
            return combine(items)
        }

        private mutating func combine(_ items: [Item]) -> GroupResult {
            let lastOperand = items.lastIndex(where: { if case .operand = $0 { true } else { false } })
            var operands: [Operand] = []
            var startsAlternative = false
            var negateNext = false
            var afterOperator = false
            for (index, item) in items.enumerated() {
                switch item {
                case .operand(let node, let negated):
                    operands.append(Operand(startsAlternative: startsAlternative, negated: negated || negateNext, node: node))
                    startsAlternative = false
                    negateNext = false
                    afterOperator = false
                case .op(let op):
                    guard let lastOperand, index < lastOperand else {
                        notes.append(lastOperand == nil ? Message.operatorAlone(op) : Message.operatorAtEnd(op))
                        continue
                    }
                    if operands.isEmpty || afterOperator {
                        if op == .not, !negateNext {
                            negateNext = true
                        } else {
                            notes.append(operands.isEmpty ? Message.operatorAtStart(op) : Message.operatorDoubled(op))
                        }
                    } else {
                        startsAlternative = op == .or
                        negateNext = op == .not
                        afterOperator = true
                    }
                }
            }

            var alternatives: [[Operand]] = []
            for operand in operands {
                if operand.startsAlternative || alternatives.isEmpty {
                    alternatives.append([operand])
                } else {
                    alternatives[alternatives.count - 1].append(operand)
                }
            }
            var positives: [Node] = []
            var exclusions: [Node] = []
            for alternative in alternatives {
                switch combineAll(alternative) {
                case .positive(let node): positives.append(node)
                case .negativeOnly(let node): exclusions.append(node)
                case .empty: break
                }
            }
            if let node = Node.any(positives) {
                if !exclusions.isEmpty { notes.append(Message.exclusionAsAlternative) }
                return .positive(node)
            }
            // (NOT a) OR (NOT b) leaves out what has both a and b.
            return Node.all(exclusions).map { .negativeOnly($0) } ?? .empty
        }

        /// One run of terms joined by AND (written or implicit) and NOT.
        private mutating func combineAll(_ operands: [Operand]) -> GroupResult {
            var included = operands.filter { !$0.negated }.map(\.node)
            let excluded = operands.filter(\.negated).map(\.node)
            if included.contains(where: { !isStopword($0) }) {
                for node in included {
                    if case .word(let word) = node, isStopword(node), !droppedStopwords.contains(word) {
                        droppedStopwords.append(word)
                    }
                }
                included.removeAll(where: isStopword)
            }
            guard let base = Node.all(included) else {
                return Node.any(excluded).map { .negativeOnly($0) } ?? .empty
            }
            guard let exclusion = Node.any(excluded) else { return .positive(base) }
            if case .not(let inner, let earlier) = base, let both = Node.any([earlier, exclusion]) {
                return .positive(.not(inner, excluding: both))
            }
            return .positive(.not(base, excluding: exclusion))
        }

        /// True for a bare word in the stopword list.
        func isStopword(_ node: Node) -> Bool {
            if case .word(let word) = node { stopwords.contains(word) } else { false }
        }
    }
}

extension SearchQuery.Node {
    /// `and` of the nodes, flattened and without repeats; the node itself when there is one.
    static func all(_ nodes: [Self]) -> Self? {
        var flat: [Self] = []
        for node in nodes {
            let parts: [Self] = if case .and(let inner) = node { inner } else { [node] }
            for part in parts where !flat.contains(part) { flat.append(part) }
        }
        return flat.count > 1 ? .and(flat) : flat.first
    }

    /// `or` of the nodes, flattened and without repeats; the node itself when there is one.
    static func any(_ nodes: [Self]) -> Self? {
        var flat: [Self] = []
        for node in nodes {
            let parts: [Self] = if case .or(let inner) = node { inner } else { [node] }
            for part in parts where !flat.contains(part) { flat.append(part) }
        }
        return flat.count > 1 ? .or(flat) : flat.first
    }

    /// The words, prefixes and phrases that must be present for a match (not those excluded by `NOT`).
    var positiveLeaves: [Self] {
        switch self {
        case .word, .prefix, .phrase: [self]
        case .and(let nodes), .or(let nodes): nodes.flatMap(\.positiveLeaves)
        case .not(let node, _): node.positiveLeaves
        }
    }

    /// Every word, prefix and phrase, excluded ones too, in order.
    var leaves: [Self] {
        switch self {
        case .word, .prefix, .phrase: [self]
        case .and(let nodes), .or(let nodes): nodes.flatMap(\.leaves)
        case .not(let node, let excluded): node.leaves + excluded.leaves
        }
    }
}

// MARK: - Messages

extension SearchQuery {
    /// The notes a query can carry. None repeats free text from the user, only operators and words
    /// from the stopword list (a fødselsnummer typed into the search box is never printed back).
    enum Message {
        static let noWords = UserMessage(
            nb: "Søket inneholder ingen ord å søke etter.",
            en: "The search contains no words to search for.")
        static let onlyExclusions = UserMessage(
            nb: "Søket sier bare hva som skal utelates (NOT eller -). Skriv også minst ett ord som skal finnes, for eksempel «MR NOT kne».",
            en: "The search only says what to leave out (NOT or -). Also write at least one word to find, for example “MR NOT kne”.")
        static let onlyStopwords = UserMessage(
            nb: "Søket inneholder bare vanlige småord, som finnes i nesten alle brev. Skriv et mer særegent ord.",
            en: "The search contains only common short words, found in almost every letter. Write a more specific word.")
        static let strayStar = UserMessage(
            nb: "«*» ble ignorert: den virker bare rett etter et ord på minst to bokstaver eller sifre, som i «orto*».",
            en: "“*” was ignored: it only works right after a word of at least two letters or digits, as in “orto*”.")
        static let unclosedQuote = UserMessage(
            nb: "Anførselstegnet ble ikke avsluttet; resten av teksten ble søkt som én frase.",
            en: "The quotation mark was not closed; the rest of the text was searched as one phrase.")
        static let missingClosing = UserMessage(
            nb: "En manglende «)» ble lagt til på slutten.",
            en: "A missing “)” was added at the end.")
        static let strayClosing = UserMessage(
            nb: "En «)» uten «(» foran ble ignorert.",
            en: "A “)” without a “(” before it was ignored.")
        static let nestedTooDeep = UserMessage(
            nb: "Parentesene lå for mange lag inni hverandre; de innerste ble ignorert.",
            en: "The parentheses were nested too deeply; the innermost ones were ignored.")
        static let tooLong = UserMessage(
            nb: "Søket var for langt; bare de første \(SearchQuery.maximumWords) ordene ble brukt.",
            en: "The search was too long; only the first \(SearchQuery.maximumWords) words were used.")
        static let exclusionAsAlternative = UserMessage(
            nb: "En utelatelse (NOT eller -) kan ikke være et eget alternativ med OR, og ble ignorert.",
            en: "Something to leave out (NOT or -) cannot be an alternative on its own with OR, and was ignored.")

        static func operatorAtStart(_ op: Parser.Operator) -> UserMessage {
            UserMessage(nb: "«\(op.rawValue)» i starten ble ignorert.", en: "“\(op.rawValue)” at the start was ignored.")
        }

        static func operatorAtEnd(_ op: Parser.Operator) -> UserMessage {
            UserMessage(nb: "«\(op.rawValue)» på slutten ble ignorert.", en: "“\(op.rawValue)” at the end was ignored.")
        }

        static func operatorDoubled(_ op: Parser.Operator) -> UserMessage {
            UserMessage(nb: "«\(op.rawValue)» rett etter en annen operator ble ignorert.",
                        en: "“\(op.rawValue)” right after another operator was ignored.")
        }

        static func operatorAlone(_ op: Parser.Operator) -> UserMessage {
            UserMessage(nb: "«\(op.rawValue)» uten ord å knytte sammen ble ignorert.",
                        en: "“\(op.rawValue)” with no words to join was ignored.")
        }

        static func stopwordsDropped(_ words: [String]) -> UserMessage {
            let nb = words.map { "«\($0)»" }.joined(separator: ", ")
            let en = words.map { "“\($0)”" }.joined(separator: ", ")
            return UserMessage(nb: "Vanlige småord ble ikke tatt med i søket: \(nb).",
                               en: "Common short words were left out of the search: \(en).")
        }
    }
}
