/// Writing a ``SearchQuery`` as an SQLite FTS5 `MATCH` expression, and the terms it searches for.
extension SearchQuery {
    /// Every bare word in the query (not prefixes or phrases), excluded ones too, lower-cased,
    /// without repeats, in the order of ``root`` (words to find before words to leave out): the
    /// words to look up alternatives for before calling ``ftsExpression(expand:)``.
    public var words: [String] {
        var result: [String] = []
        for case .word(let word) in root?.leaves ?? [] where !result.contains(word) {
            result.append(word)
        }
        return result
    }

    /// The terms to mark in results: the words, prefixes (without `*`: mark words that begin with
    /// them) and the words of phrases that must be present, lower-cased, without repeats, in the
    /// order of ``root``. Terms after `NOT` or `-` are left out.
    public var highlightTerms: [String] {
        var result: [String] = []
        for leaf in root?.positiveLeaves ?? [] {
            let terms: [String] = switch leaf {
            case .word(let text), .prefix(let text): [text]
            case .phrase(let words): words
            case .and, .or, .not: []
            }
            for term in terms where !result.contains(term) { result.append(term) }
        }
        return result
    }

    /// The FTS5 `MATCH` expression, or nil when ``root`` is nil (nothing to search for).
    ///
    /// Every term is an FTS5 string in double quotes (an embedded `"` doubled), so the expression
    /// always compiles whatever the user typed: a word is `"kne"`, a prefix `"orto"*`, a phrase
    /// `"time hos fastlegen"`; operators are written out (`AND`, `OR`, `NOT`) and every compound
    /// operand is parenthesised. The same query always gives the same text.
    ///
    /// - Parameter expand: Extra alternatives for a bare word: index terms as the tokenizer makes
    ///   them (its inflections, compounds it stands in), each searched as a term or, when `prefix`
    ///   is true, as a prefix. They are written after ``termMarker`` so the tokenizer takes them as
    ///   they are instead of stemming them again. The word itself always comes first; repeats and
    ///   alternatives without a letter or digit are skipped. A word with alternatives is written
    ///   `("w" OR "␁alt"* OR "␁alt2")`.
    /// Starts an FTS5 string of index terms that must not be stemmed again (the C tokenizer's
    /// `ARKIVATOR_FTS_TERM_MARKER`). A control character: never in what a user typed.
    public static let termMarker = "\u{1}"

    /// - Parameter terms: The index terms a prefix stands for, when the caller knows them all (a
    ///   handful of terms is much faster to search than an FTS5 prefix); nil keeps `"prefix"*`.
    /// - Parameter phrases: Another spelling of a phrase's words (one alternative), when there is one.
    public func ftsExpression(expand: (String) -> [(text: String, prefix: Bool)] = { _ in [] },
                              terms: (String) -> [String]? = { _ in nil },
                              phrases: ([String]) -> [String]? = { _ in nil }) -> String? {
        root.map { Self.fts($0, expand: expand, terms: terms, phrases: phrases) }
    }

    private static func fts(_ node: Node, expand: (String) -> [(text: String, prefix: Bool)],
                            terms: (String) -> [String]? = { _ in nil }, phrases: ([String]) -> [String]? = { _ in nil }) -> String {
        switch node {
        case .word(let word):
            var terms = [quoted(word)]
            for alternative in expand(word)
            where alternative.text.unicodeScalars.contains(where: { Lexer.isWordScalar($0) }) {
                let term = quoted(alternative.text, marked: true) + (alternative.prefix ? "*" : "")
                if !terms.contains(term) { terms.append(term) }
            }
            return terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " OR ") + ")"
        case .prefix(let text):
            if let known = terms(text), !known.isEmpty {
                let alternatives = known.map { quoted($0, marked: true) }
                return alternatives.count == 1 ? alternatives[0] : "(" + alternatives.joined(separator: " OR ") + ")"
            }
            return quoted(text) + "*"
        case .phrase(let words):
            guard let other = phrases(words), other != words else { return quoted(words.joined(separator: " ")) }
            return "(" + quoted(words.joined(separator: " ")) + " OR " + quoted(other.joined(separator: " ")) + ")"
        case .and(let nodes):
            return nodes.map { operand($0, expand: expand, terms: terms, phrases: phrases) }.joined(separator: " AND ")
        case .or(let nodes):
            return nodes.map { operand($0, expand: expand, terms: terms, phrases: phrases) }.joined(separator: " OR ")
        case .not(let node, let excluded):
            return operand(node, expand: expand, terms: terms, phrases: phrases) + " NOT "
                + operand(excluded, expand: expand, terms: terms, phrases: phrases)
        }
    }

    /// A node as one operand of an operator: compound nodes in parentheses.
    private static func operand(_ node: Node, expand: (String) -> [(text: String, prefix: Bool)],
                                terms: (String) -> [String]?, phrases: ([String]) -> [String]?) -> String {
        switch node {
        case .word, .prefix, .phrase: fts(node, expand: expand, terms: terms, phrases: phrases)
        case .and, .or, .not: "(" + fts(node, expand: expand, terms: terms, phrases: phrases) + ")"
        }
    }

    /// An FTS5 string: in double quotes, with each `"` inside doubled and control characters left
    /// out (FTS5 reads a NUL as the end of the expression: «unterminated string»).
    private static func quoted(_ text: String, marked: Bool = false) -> String {
        // By scalar, not by Character: a `"` followed by a combining mark is one Character.
        var result = String.UnicodeScalarView()
        result.append("\"")
        if marked { result.append(contentsOf: termMarker.unicodeScalars) }
        for scalar in text.unicodeScalars where scalar.properties.generalCategory != .control {
            result.append(scalar)
            if scalar == "\"" { result.append(scalar) }
        }
        result.append("\"")
        return String(result)
    }
}
