import ArkivatorCore
import Foundation

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
