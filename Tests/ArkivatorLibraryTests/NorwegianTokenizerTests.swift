import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// The FTS5 `norwegian` tokenizer (unicode61 keeping å/ø/æ + Snowball Norwegian) and `norwegianTerms`.
@Suite struct NorwegianTokenizerTests {
    /// A fresh database file in a temporary folder; `Database(url:)` registers the tokenizer.
    /// (Callers write `database throws in`: a closure whose only `try` is inside `#expect` is not inferred to throw.)
    private func withDatabase(_ body: (Database) throws -> Void) throws {
        try withTemporaryDirectory { dir in
            try body(try Database(url: dir.appendingPathComponent(Database.fileName)))
        }
    }

    /// The two sample letters, in `letters(text)`, rowids 1 and 2.
    private func makeLetters(_ database: Database, tokenize: String = "tokenize='norwegian'") throws {
        try database.execute(script: "CREATE VIRTUAL TABLE letters USING fts5(text, \(tokenize))")
        try database.execute("INSERT INTO letters (rowid, text) VALUES (1, ?)", ["Epikrise fra ortopedisk avdeling"])
        try database.execute("INSERT INTO letters (rowid, text) VALUES (2, ?)", ["Svar på blodprøvesvar"])
    }

    private func matches(_ database: Database, _ query: String, table: String = "letters") throws -> [Int] {
        try database.rows("SELECT rowid FROM \(table) WHERE \(table) MATCH ? ORDER BY rowid", [query])
            .compactMap { $0[0].int }
    }

    @Test func inflectedFormsShareOneTerm() throws {
        try withDatabase { database throws in
            #expect(try database.norwegianTerms("epikrisen") == database.norwegianTerms("epikrise"))
            #expect(try database.norwegianTerms("epikrisen") == ["epikris"])
            #expect(try database.norwegianTerms("Epikrisene epikriser") == ["epikris", "epikris"], "duplicates kept")
        }
    }

    @Test func lowercasesAndKeepsNorwegianLetters() throws {
        try withDatabase { database throws in
            #expect(try database.norwegianTerms("Blodprøven") == ["blodprøv"])
            #expect(try database.norwegianTerms("ÆRLIG Økonomi Ålesund") == database.norwegianTerms("ærlig økonomi ålesund"))
        }
    }

    @Test func tokensWithDigitsAreNotStemmed() throws {
        try withDatabase { database throws in
            #expect(try database.norwegianTerms("2024 12a") == ["2024", "12a"])
            // "prøver" alone loses its ending; with a digit the token is a code and stays whole.
            #expect(try database.norwegianTerms("prøver prøver2") == ["prøv", "prøver2"])
        }
    }

    @Test func matchFindsOtherInflections() throws {
        try withDatabase { database throws in
            try makeLetters(database)
            #expect(try matches(database, "epikrisen") == [1])
            #expect(try matches(database, "Epikriser") == [1])
            #expect(try matches(database, "svaret") == [2])
        }
    }

    @Test func prefixQueriesAreNotStemmed() throws {
        try withDatabase { database throws in
            try makeLetters(database)
            #expect(try matches(database, "\"ortoped\"*") == [1])
            #expect(try matches(database, "ortoped*") == [1])
            // Only the last token of a prefix phrase is the prefix: "epikrisen" is stemmed, "fr" is not.
            #expect(try matches(database, "\"epikrisen fr\"*") == [1])
            // The flip side: a whole word as a prefix is compared with stems, so "epikrise"* misses
            // the stem "epikris". The search layer builds prefixes from stems, not from the user's word.
            #expect(try matches(database, "\"epikrise\"*") == [])
            #expect(try matches(database, "\"epikris\"*") == [1])
        }
    }

    @Test func compoundsAreNotSplitByTheTokenizer() throws {
        try withDatabase { database throws in
            try makeLetters(database)
            // "blodprøvesvar" is one term ("blodprøvesv"): a search for its first part needs the
            // compound handling of the search layer, not the tokenizer.
            #expect(try matches(database, "blodprøve") == [])
            #expect(try matches(database, "blodprøvesvar") == [2])
            // Snowball quirk: the definite form keeps "ar" ("blodprøvesvar"), the bare form loses it.
            #expect(try database.norwegianTerms("blodprøvesvar blodprøvesvaret") == ["blodprøvesv", "blodprøvesvar"])
        }
    }

    @Test func diacriticsAreKept() throws {
        try withDatabase { database throws in
            #expect(try database.norwegianTerms("åre") == ["åre"])
            #expect(try database.norwegianTerms("are") == ["are"])
            try database.execute(script: "CREATE VIRTUAL TABLE words USING fts5(text, tokenize='norwegian')")
            try database.execute("INSERT INTO words (rowid, text) VALUES (1, 'åre'), (2, 'are'), (3, 'søster')")
            #expect(try matches(database, "åre", table: "words") == [1])
            #expect(try matches(database, "are", table: "words") == [2])
            #expect(try matches(database, "soster", table: "words") == [])
        }
    }

    @Test func extraUnicode61ArgumentsArePassedThrough() throws {
        try withDatabase { database throws in
            try makeLetters(database, tokenize: "tokenize=\"norwegian tokenchars '-'\"")
            try database.execute("INSERT INTO letters (rowid, text) VALUES (3, ?)", ["E-resept fra fastlegen"])
            #expect(try matches(database, "\"e-resept\"") == [3])
            #expect(try matches(database, "epikrisen") == [1], "still stemmed")
            // remove_diacritics 0 wins even when the spec asks otherwise.
            try database.execute(script: "CREATE VIRTUAL TABLE words USING fts5(text, tokenize='norwegian remove_diacritics 2')")
            try database.execute("INSERT INTO words (rowid, text) VALUES (1, 'åre'), (2, 'are')")
            #expect(try matches(database, "are", table: "words") == [2])
            // Arguments unicode61 refuses make the table fail, not crash or leak.
            #expect(throws: DatabaseError.self) {
                try database.execute(script: "CREATE VIRTUAL TABLE broken USING fts5(text, tokenize='norwegian nonsense')")
            }
        }
    }

    @Test func emptyTextHasNoTerms() throws {
        try withDatabase { database throws in
            #expect(try database.norwegianTerms("") == [])
            #expect(try database.norwegianTerms(" ,. – \n") == [])
        }
    }

    @Test func longTextWorks() throws {
        try withDatabase { database throws in
            let sentence = "Epikrisen fra ortopedisk avdeling, blodprøven 2024 og innkallingen. "
            let repeats = 100_000 / sentence.utf8.count + 1
            let text = String(repeating: sentence, count: repeats)
            #expect(text.utf8.count >= 100_000)
            let found = try database.norwegianTerms(text)
            #expect(found.count == 8 * repeats)
            #expect(Array(found.prefix(8)) == ["epikris", "fra", "ortopedisk", "avdeling", "blodprøv", "2024", "og", "innkalling"])
            try database.execute(script: "CREATE VIRTUAL TABLE letters USING fts5(text, tokenize='norwegian')")
            try database.execute("INSERT INTO letters (rowid, text) VALUES (1, ?)", [text])
            #expect(try matches(database, "innkalling") == [1])
        }
    }

    @Test func termsAgreeWithTheIndex() throws {
        try withDatabase { database throws in
            try makeLetters(database)
            let more = "Innkallingen til Ortopedisk poliklinikk: henvisningen og resepter, time 12a kl. 08.15. Åre, are!"
            try database.execute("INSERT INTO letters (rowid, text) VALUES (3, ?)", [more])
            try database.execute(script: "CREATE VIRTUAL TABLE letters_terms USING fts5vocab(letters, 'instance')")
            for (rowid, text) in [(1, "Epikrise fra ortopedisk avdeling"), (2, "Svar på blodprøvesvar"), (3, more)] {
                let indexed = try database.rows("SELECT term FROM letters_terms WHERE doc = ? ORDER BY offset", [rowid])
                    .compactMap { $0[0].string }
                #expect(try database.norwegianTerms(text) == indexed, "row \(rowid)")
            }
        }
    }

    @Test func everyConnectionHasTheTokenizer() throws {
        try withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent(Database.fileName)
            do {
                let database = try Database(url: url)
                try makeLetters(database)
            }
            let again = try Database(url: url)
            #expect(try matches(again, "epikrisen") == [1])
        }
    }

    /// Stems the search design depends on (Snowball Norwegian, as libstemmer ships it).
    @Test func stemsThatMatterForSearch() throws {
        try withDatabase { database throws in
            let words = ["ortopedisk", "ortopedi", "blodprøvesvar", "prøvesvar", "innkallingen", "innkalling",
                         "henvisningen", "resepter", "fastlegen"]
            #expect(try database.norwegianTerms(words.joined(separator: " ")) == [
                "ortopedisk", "ortopedi", "blodprøvesv", "prøvesv", "innkalling", "innkalling",
                "henvisning", "resept", "fast",
            ])
        }
    }

    /// Snippets stem only the words a wanted term could come from, which holds because the
    /// stemmer only takes endings off: every term starts its word as unicode61 lower-cases it.
    @Test func termsStartTheirWords() throws {
        try withDatabase { database throws in
            let text = Letters.all.map(\.text).joined(separator: "\n")
                + " kjørte lærte hjertet barnas stillingene ert erte ÆRLIG Økonomi Ålesund 12a 2024 brystsmerter"
            let bytes = Array(text.utf8)
            // Where Swift lower-cases as unicode61 does (it folds «µ» to «μ», Swift keeps it).
            let plain = Set("abcdefghijklmnopqrstuvwxyzæøå0123456789")
            for token in try database.norwegianTokens(text) {
                let word = String(decoding: bytes[token.bytes], as: UTF8.self).lowercased()
                guard word.allSatisfy(plain.contains) else { continue }
                #expect(word.utf8.starts(with: token.term.utf8), "«\(token.term)» starts «\(word)»")
            }
        }
    }

    /// `norwegianHits` gives every word with its range, as `norwegianTokens` does, and the term of
    /// exactly those whose term is wanted or starts with a wanted prefix.
    @Test func hitsAreTheWantedTermsOfTheTokens() throws {
        try withDatabase { database throws in
            let words = "kjørte lærte hjertet barnas stillingene ert erte µg/L Ålesund 12a brystsmerter blodprøvesvaret"
            for text in Letters.all.map(\.text) + [words] {
                let tokens = try database.norwegianTokens(text)
                let wanted = Set(tokens.enumerated().filter { $0.offset % 3 == 0 }.map(\.element.term))
                for (terms, prefixes) in [(wanted, ["orto", "hemo"]), (Set<String>(), []), (wanted, []), ([], ["k"])] {
                    let hits = try database.norwegianHits(text, terms: terms, prefixes: prefixes)
                    #expect(hits.map(\.bytes) == tokens.map(\.bytes))
                    #expect(hits.map(\.term) == tokens.map { token in
                        terms.contains(token.term) || prefixes.contains { token.term.hasPrefix($0) } ? token.term : nil
                    }, "\(text.prefix(20)) \(prefixes)")
                }
            }
            #expect(try database.norwegianHits("", terms: ["kne"], prefixes: []).isEmpty)
        }
    }
}
