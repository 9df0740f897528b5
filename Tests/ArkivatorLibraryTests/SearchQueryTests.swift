import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

private typealias Node = SearchQuery.Node

/// A search text and the tree and FTS5 expression it should give.
struct QueryExample: Sendable, CustomTestStringConvertible {
    let text: String
    let root: SearchQuery.Node?
    let fts: String?
    /// A piece of the Norwegian note expected, or nil when the text is taken exactly as written.
    let note: String?

    init(_ text: String, _ root: SearchQuery.Node?, _ fts: String? = nil, note: String? = nil) {
        self.text = text
        self.root = root
        self.fts = fts
        self.note = note
    }

    var testDescription: String { text.debugDescription }
}

@Suite struct SearchQueryTests {
    // MARK: Trees and expressions

    static let understood: [QueryExample] = [
        QueryExample("epikrisen ortopedi", .and([.word("epikrisen"), .word("ortopedi")]), #""epikrisen" AND "ortopedi""#),
        QueryExample(#""time hos fastlegen""#, .phrase(["time", "hos", "fastlegen"]), #""time hos fastlegen""#),
        QueryExample("orto*", .prefix("orto"), #""orto"*"#),
        QueryExample("kne OR hofte", .or([.word("kne"), .word("hofte")]), #""kne" OR "hofte""#),
        QueryExample("MR NOT kne", .not(.word("mr"), excluding: .word("kne")), #""mr" NOT "kne""#),
        QueryExample("MR -kne", .not(.word("mr"), excluding: .word("kne")), #""mr" NOT "kne""#),
        QueryExample("kne AND NOT hofte", .not(.word("kne"), excluding: .word("hofte")), #""kne" NOT "hofte""#),
        QueryExample("(kne OR hofte) AND operasjon", .and([.or([.word("kne"), .word("hofte")]), .word("operasjon")]),
                     #"("kne" OR "hofte") AND "operasjon""#),
        QueryExample("St. Olavs", .and([.word("st"), .word("olavs")]), #""st" AND "olavs""#),
        QueryExample("St.Olavs", .phrase(["st", "olavs"]), #""st olavs""#),
        QueryExample("e-resept", .phrase(["e", "resept"]), #""e resept""#),
        QueryExample("12.03.2024", .phrase(["12", "03", "2024"]), #""12 03 2024""#),
        QueryExample("blodprøve", .word("blodprøve"), #""blodprøve""#),
        QueryExample("BLODPRØVE Ærlig ØRE Å", .and([.word("blodprøve"), .word("ærlig"), .word("øre"), .word("å")]),
                     #""blodprøve" AND "ærlig" AND "øre" AND "å""#),
        QueryExample("cafe\u{301}", .word("café"), "\"café\""),
        QueryExample("kne and hofte", .and([.word("kne"), .word("and"), .word("hofte")]), #""kne" AND "and" AND "hofte""#),
        QueryExample("not or", .and([.word("not"), .word("or")]), #""not" AND "or""#),
        QueryExample("a b OR c", .or([.and([.word("a"), .word("b")]), .word("c")]), #"("a" AND "b") OR "c""#),
        QueryExample("MR -kne -hofte", .not(.word("mr"), excluding: .or([.word("kne"), .word("hofte")])),
                     #""mr" NOT ("kne" OR "hofte")"#),
        QueryExample("MR NOT (kne OR hofte)", .not(.word("mr"), excluding: .or([.word("kne"), .word("hofte")])),
                     #""mr" NOT ("kne" OR "hofte")"#),
        QueryExample("-(kne OR hofte) MR", .not(.word("mr"), excluding: .or([.word("kne"), .word("hofte")])),
                     #""mr" NOT ("kne" OR "hofte")"#),
        QueryExample("(NOT kne) MR", .not(.word("mr"), excluding: .word("kne")), #""mr" NOT "kne""#),
        QueryExample("«time hos» lege", .and([.phrase(["time", "hos"]), .word("lege")]), #""time hos" AND "lege""#),
        QueryExample(#"-"time hos" lege"#, .not(.word("lege"), excluding: .phrase(["time", "hos"])), #""lege" NOT "time hos""#),
        QueryExample(#""kne""#, .phrase(["kne"]), #""kne""#),
        QueryExample("kne kne", .word("kne"), #""kne""#),
        QueryExample("{title}: x", .and([.word("title"), .word("x")]), #""title" AND "x""#),
        QueryExample("(a OR b) (c OR d) -e", .not(.and([.or([.word("a"), .word("b")]), .or([.word("c"), .word("d")])]),
                                               excluding: .word("e")),
                     #"(("a" OR "b") AND ("c" OR "d")) NOT "e""#),
    ]

    @Test(arguments: understood)
    func understoodAsWritten(_ example: QueryExample) {
        let query = SearchQuery.parse(example.text)
        #expect(query.root == example.root)
        #expect(query.ftsExpression() == example.fts)
        #expect(query.notes.isEmpty, "\(query.notes)")
    }

    static let repaired: [QueryExample] = [
        QueryExample("ortopedi AND", .word("ortopedi"), note: "«AND» på slutten ble ignorert"),
        QueryExample("kne NOT", .word("kne"), note: "«NOT» på slutten ble ignorert"),
        QueryExample("AND kne", .word("kne"), note: "«AND» i starten ble ignorert"),
        QueryExample("OR kne OR", .word("kne"), note: "«OR» i starten ble ignorert"),
        QueryExample("kne AND AND hofte", .and([.word("kne"), .word("hofte")]), note: "«AND» rett etter en annen operator"),
        QueryExample("kne OR AND hofte", .or([.word("kne"), .word("hofte")]), note: "«AND» rett etter en annen operator"),
        QueryExample("kne NOT NOT hofte", .not(.word("kne"), excluding: .word("hofte")), note: "«NOT» rett etter"),
        QueryExample("kne OR -hofte", .word("kne"), note: "utelatelse"),
        QueryExample("NEAR(", .word("near"), note: "manglende «)»"),
        QueryExample("(kne OR hofte", .or([.word("kne"), .word("hofte")]), note: "manglende «)»"),
        QueryExample("kne) hofte", .and([.word("kne"), .word("hofte")]), note: "«)» uten «(»"),
        QueryExample(#""time hos"#, .phrase(["time", "hos"]), note: "Anførselstegnet ble ikke avsluttet"),
        QueryExample("a*", .word("a"), note: "«*» ble ignorert"),
        QueryExample("kne *", .word("kne"), note: "«*» ble ignorert"),
        QueryExample("orto*pedi", .phrase(["orto", "pedi"]), note: "«*» ble ignorert"),
        QueryExample("e-res*", .phrase(["e", "res"]), note: "«*» ble ignorert"),
        QueryExample("((((((((kne OR hofte))))))))", .or([.word("kne"), .word("hofte")]), note: "for mange lag"),
    ]

    @Test(arguments: repaired)
    func repairedWithANote(_ example: QueryExample) throws {
        let query = SearchQuery.parse(example.text)
        #expect(query.root == example.root)
        #expect(query.ftsExpression() != nil)
        let note = try #require(example.note)
        #expect(query.notes.contains { $0.norwegian.contains(note) }, "\(query.notes)")
        #expect(query.notes.allSatisfy { !$0.english.isEmpty })
    }

    static let nothingToSearch: [QueryExample] = [
        QueryExample("", nil, note: "ingen ord"),
        QueryExample("   \t\n", nil, note: "ingen ord"),
        QueryExample("\"", nil, note: "ingen ord"),
        QueryExample("\"\"", nil, note: "ingen ord"),
        QueryExample("*", nil, note: "ingen ord"),
        QueryExample("AND", nil, note: "«AND» uten ord"),
        QueryExample("NOT", nil, note: "ingen ord"),
        QueryExample("((", nil, note: "ingen ord"),
        QueryExample("()", nil, note: "ingen ord"),
        QueryExample("^", nil, note: "ingen ord"),
        QueryExample(":", nil, note: "ingen ord"),
        QueryExample("-", nil, note: "ingen ord"),
        QueryExample("😀🎉👍🏽", nil, note: "ingen ord"),
        QueryExample("NOT kne", nil, note: "bare hva som skal utelates"),
        QueryExample("-kne", nil, note: "bare hva som skal utelates"),
        QueryExample("-kne -hofte", nil, note: "bare hva som skal utelates"),
        QueryExample("NOT (kne OR hofte)", nil, note: "bare hva som skal utelates"),
        QueryExample("-kne OR -hofte", nil, note: "bare hva som skal utelates"),
    ]

    @Test(arguments: nothingToSearch)
    func nothingToSearchGivesAMessage(_ example: QueryExample) throws {
        let query = SearchQuery.parse(example.text)
        #expect(query.root == nil)
        #expect(query.ftsExpression() == nil)
        let note = try #require(example.note)
        #expect(query.notes.contains { $0.norwegian.contains(note) }, "\(query.notes)")
    }

    @Test func stopwordsAreDroppedOnlyBesideOtherTerms() {
        let stopwords: Set<String> = ["fra", "og", "I"]
        let dropped = SearchQuery.parse("brev fra sykehuset", stopwords: stopwords)
        #expect(dropped.root == .and([.word("brev"), .word("sykehuset")]))
        #expect(dropped.notes.count == 1 && dropped.notes[0].norwegian.contains("«fra»"))

        let phrase = SearchQuery.parse(#""brev fra sykehuset""#, stopwords: stopwords)
        #expect(phrase.root == .phrase(["brev", "fra", "sykehuset"]))
        #expect(phrase.notes.isEmpty)

        // The set is compared lower-cased, and so are the words typed.
        #expect(SearchQuery.parse("Kne I Fra", stopwords: stopwords).root == .word("kne"))
        for capitals: Set<String> in [["PÅ"], ["På"], ["på"], ["ΠΑ", "på"]] {
            #expect(SearchQuery.parse("kne på Ålesund", stopwords: capitals).root == .and([.word("kne"), .word("ålesund")]),
                    "\(capitals)")
        }
        // A stopword alone in its AND group is kept.
        #expect(SearchQuery.parse("fra OR kne", stopwords: stopwords).root == .or([.word("fra"), .word("kne")]))

        let only = SearchQuery.parse("og fra", stopwords: stopwords)
        #expect(only.root == nil)
        #expect(only.notes.contains { $0.norwegian.contains("bare vanlige småord") })
    }

    @Test func wordsGetTheirAlternativesAndNothingElseDoes() {
        let query = SearchQuery.parse("kneet MR")
        let expression = query.ftsExpression { word in
            word == "kneet" ? [("kne", true), ("kneet", false), ("kne", true), ("knær", false)] : []
        }
        // Alternatives are index terms, marked so the tokenizer does not stem them again.
        let m = SearchQuery.termMarker
        #expect(expression == "(\"kneet\" OR \"\(m)kne\"* OR \"\(m)kneet\" OR \"\(m)knær\") AND \"mr\"")

        // Quotes inside alternatives are doubled; alternatives without letters or digits are skipped.
        let odd = SearchQuery.parse("x").ftsExpression { _ in [("a\"b", false), ("", true), ("  ", false), ("-", true), ("c\u{0}d", false)] }
        #expect(odd == "(\"x\" OR \"\(m)a\"\"b\" OR \"\(m)cd\")")

        // Prefixes and phrases are never expanded.
        let literal = SearchQuery.parse(#"orto* "kne""#).ftsExpression { _ in [("zzz", false)] }
        #expect(literal == #""orto"* AND "kne""#)
    }

    @Test func wordsAndHighlightTerms() {
        let query = SearchQuery.parse(#"MR kne* "time hos" -hofte (lege OR MR)"#)
        #expect(query.words == ["mr", "lege", "hofte"])
        #expect(query.highlightTerms == ["mr", "kne", "time", "hos", "lege"])
        #expect(SearchQuery.parse("-kne").words == [])
        #expect(SearchQuery.parse("-kne").highlightTerms == [])
    }

    @Test func aLongTextIsCutAtTheWordLimit() {
        let words = (0..<100).map { "ord\($0)" }
        let query = SearchQuery.parse(words.joined(separator: " "))
        #expect(query.root == .and(words.prefix(SearchQuery.maximumWords).map { .word($0) }))
        #expect(query.notes.contains { $0.norwegian.contains("for langt") })

        let phrase = SearchQuery.parse("\"" + words.joined(separator: " ") + "\"")
        #expect(phrase.root == .phrase(Array(words.prefix(SearchQuery.maximumWords))))
        #expect(phrase.notes.count == 1, "no note about the quotation mark cut off")
    }

    // MARK: Against a real FTS5 table

    /// The examples from the design, and texts built to stress the FTS5 parser.
    static let hardTexts: [String] = {
        var texts = [
            "epikrisen ortopedi", #""time hos fastlegen""#, "orto*", "kne OR hofte", "MR NOT kne", "-kne",
            "(kne OR hofte) AND operasjon", "St. Olavs", "e-resept", "blodprøve", "\"", "ortopedi AND", "*", "AND",
            "((", "NOT", "^", ":", "NEAR(", "{title}: x", "😀", "kne 😀 hofte", "NEAR(kne hofte, 3)", "kne + hofte",
            "title:kne", "^kne", "kne\"hofte", "\"\"\"", "a\u{0}b", "\u{0}", "AND OR NOT", "( ) ( )", ")(", "-(", "-\"",
            "--kne hofte", "kne - hofte", "\\\"kne\\\"", "'kne'", "kne/hofte", "kne, hofte.", "OR", "NOT NOT NOT",
        ]
        let sentence = #"Pasienten (f. 12.03.1950) ble henvist til St.Olavs for MR av "kne OR hofte* -e-resept "#
        texts.append(String(repeating: sentence, count: 10_240 / sentence.utf8.count + 1))
        texts.append(String(repeating: "a", count: 10_240))
        texts.append(String(repeating: "(", count: 10_240))
        texts.append(String(repeating: "\"", count: 10_240))
        texts.append(String(repeating: "AND ", count: 2_560))
        texts.append(String(repeating: "(a ", count: 2_000))
        texts.append(String(repeating: "-(a OR -(b ", count: SearchQuery.maximumNesting + 2))
        texts.append(contentsOf: deeplyNested)
        return texts
    }()

    /// Parentheses nested past the limit, each level written to become as many levels of FTS5
    /// parentheses as it can (an OR around a NOT around an AND).
    static let deeplyNested = [
        String(repeating: "q OR r s -t (", count: SearchQuery.maximumNesting + 2) + "f",
        String(repeating: "s -t -u (r OR (", count: SearchQuery.maximumNesting + 2) + "f",
        String(repeating: "q -t -(u OR r (", count: SearchQuery.maximumNesting + 2) + "f",
    ]

    @Test(arguments: deeplyNested)
    func theDeepestNestingKeptStillCompiles(_ text: String) throws {
        let query = SearchQuery.parse(text)
        #expect(query.notes.contains { $0.norwegian.contains("for mange lag") })
        let expression = try #require(query.ftsExpression { word in [(word + "en", false), (word, true)] })
        var depth = 0
        var deepest = 0
        for character in expression {
            if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
            deepest = max(deepest, depth)
        }
        #expect(depth == 0)
        #expect(deepest >= SearchQuery.maximumNesting + 2, "\(expression)")
        try withTemporaryDirectory { dir in
            let database = try Self.openTable(in: dir)
            #expect(throws: Never.self) { try database.rows("SELECT count(*) FROM t WHERE t MATCH ?", [expression]) }
        }
    }

    /// Runs every hard text and thousands of random ones through FTS5: not one may fail.
    @Test func noTextCausesAnFTS5Error() throws {
        try withTemporaryDirectory { dir in
            let database = try Self.openTable(in: dir)
            var random = SplitMix64(seed: 0x5EA4C4)
            var texts = Self.hardTexts
            for _ in 0..<2_500 { texts.append(Self.randomText(using: &random)) }
            let stopwords: Set<String> = ["og", "i", "hos", "a"]
            var failures: [String] = []
            var searched = 0
            for (index, text) in texts.enumerated() {
                let query = SearchQuery.parse(text, stopwords: index.isMultiple(of: 3) ? stopwords : [])
                if query != SearchQuery.parse(text, stopwords: index.isMultiple(of: 3) ? stopwords : []) {
                    failures.append("not deterministic: \(text.debugDescription)")
                }
                if query.root == nil, query.notes.isEmpty {
                    failures.append("nothing to search, but no note: \(text.debugDescription)")
                }
                let expand: (String) -> [(text: String, prefix: Bool)] = index.isMultiple(of: 2)
                    ? { word in [(word + "en", false), (String(word.prefix(2)), true), ("a\"b", false), ("", true)] }
                    : { _ in [] }
                guard let expression = query.ftsExpression(expand: expand) else {
                    if query.root != nil { failures.append("a root, but no expression: \(text.debugDescription)") }
                    continue
                }
                do {
                    _ = try database.rows("SELECT count(*) FROM t WHERE t MATCH ?", [expression])
                    searched += 1
                } catch {
                    failures.append("\(text.debugDescription) → \(expression): \(error)")
                }
            }
            #expect(failures.isEmpty, "\(failures.prefix(20).joined(separator: "\n"))")
            #expect(searched > 1_000, "most random texts leave something to search for")
        }
    }

    @Test func searchesFindWhatTheySay() throws {
        try withTemporaryDirectory { dir in
            let database = try Self.openTable(in: dir)
            func found(_ text: String, expand: (String) -> [(text: String, prefix: Bool)] = { _ in [] }) throws -> [Int] {
                guard let expression = SearchQuery.parse(text).ftsExpression(expand: expand) else { return [] }
                return try database.rows("SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid", [expression]).compactMap { $0[0].int }
            }
            #expect(try found(#""time hos fastlegen""#) == [1], "a phrase matches only the words side by side")
            #expect(try found("time hos fastlegen") == [1, 5])
            #expect(try found("kne OR hofte") == [1, 2, 3])
            #expect(try found("MR NOT kne") == [2])
            #expect(try found("MR -kne") == [2])
            #expect(try found("(kne OR hofte) AND MR") == [2, 3])
            #expect(try found("orto*") == [5])
            #expect(try found("e-resept") == [4])
            #expect(try found("St.Olavs") == [5])
            #expect(try found("blodprøve") == [4])
            #expect(try found("BLODPRØVE") == [4])
            #expect(try found("hofte AND") == [2])
            #expect(try found("-kne") == [])
            #expect(try found("kneet") == [])
            #expect(try found("kneet") { _ in [("kne", false)] } == [1, 3])
            #expect(try found("menisk") { _ in [("menisk", true)] } == [3])
        }
    }

    // MARK: Helpers

    private static func openTable(in directory: URL) throws -> Database {
        let database = try Database(url: directory.appendingPathComponent("search.sqlite"))
        try database.execute(script: """
            CREATE VIRTUAL TABLE t USING fts5(title, text, tokenize="unicode61 remove_diacritics 0");
            INSERT INTO t (rowid, title, text) VALUES
                (1, 'Epikrise', 'Pasienten hadde time hos fastlegen for vondt kne.'),
                (2, 'MR', 'MR av hofte viser artrose.'),
                (3, 'MR', 'MR av kne viser meniskskade.'),
                (4, 'Resept', 'Sendt som e-resept etter blodprøve.'),
                (5, 'Henvisning', 'Til St. Olavs hospital, ortopedisk avdeling. Fastlegen ga time hos oss.');
            """)
        return database
    }

    /// Pieces random search texts are made of: operators, FTS5 syntax, punctuation, words, emoji.
    private static let alphabet: [String] = [
        "\"", "*", "(", ")", "-", "^", ":", "+", "{", "}", ",", ".", "/", "\\", "'", "“", "»", "«",
        " AND ", " OR ", " NOT ", "AND", "OR", "NOT", "NEAR", "NEAR(", " ", " ", " ", "  ", "\t", "\n",
        "kne", "hofte", "MR", "orto", "e", "a", "b", "og", "hos", "æ", "ø", "å", "Æ", "Ø", "Å", "0", "12", "9",
        "😀", "👍🏽", "👨‍👩‍👧", "\u{301}", "\u{FE0F}", "\u{0}", "\u{200B}", "İ", "ß", "ǅ",
    ]

    private static func randomText(using random: inout SplitMix64) -> String {
        let length = Int.random(in: 0...24, using: &random)
        var text = ""
        for _ in 0..<length {
            text += alphabet.randomElement(using: &random) ?? ""
            if Bool.random(using: &random) { text += " " }
        }
        return text
    }
}

/// A small seeded generator (SplitMix64), so the random texts are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
