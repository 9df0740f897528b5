import ArkivatorCore
@testable import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

// MARK: - Shared helpers for the Library suites

/// Short made-up Norwegian letters, and libraries to put them in.
enum Letters {
    /// A deterministic 64-hex-digit "SHA-256" for a seed (its first 10 digits differ between seeds).
    static func sha(_ seed: String) -> String {
        (0..<4).map { salt -> String in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 &+ UInt64(salt) &* 0x9e37_79b9
            for byte in seed.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            let hex = String(hash, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    static func letter(_ seed: String, _ title: String, type: DocumentType, person: String?, institution: String?,
                       date: String, text: String) -> LibraryDocument {
        LibraryDocument(sha256: sha(seed), sourceName: "\(seed).jpg", title: "\(date) \(title)", docType: type,
                        person: person.map { "\($0) Nordmann" }, familyMember: person, institution: institution,
                        documentDate: date, text: text)
    }

    static let innkalling = letter("innkalling", "Innkalling Ortopedisk poliklinikk", type: .innkalling, person: "Kari",
                                   institution: "St. Olavs hospital", date: "2024-03-15", text: """
        Innkalling til time ved Ortopedisk poliklinikk.
        Du har fått time til MR av venstre kne tirsdag 15. april kl. 09.30.
        Møt opp 15 minutter før avtalt tid. Ta med liste over faste medisiner.
        Kopi til journal.
        """)
    static let epikrise = letter("epikrise", "Epikrise Hjerteavdelingen", type: .epikrise, person: "Ola",
                                 institution: "Haukeland universitetssjukehus", date: "2023-11-02", text: """
        Epikrise
        Pasienten ble innlagt 28.10.2023 med brystsmerter og tung pust. EKG viste ingen tegn til infarkt.
        Utskrevet i god form. Ny time til kontroll om seks uker; ta kontakt hos fastlegen ved forverring.
        Kopi til journal.
        """)
    static let labSvar = letter("labsvar", "Svar fra laboratoriet", type: .labSvar, person: "Kari",
                                institution: "Fürst medisinsk laboratorium", date: "2024-01-20", text: """
        Svar på blodprøvesvar fra Fürst.
        Hemoglobin 13,2 g/dL (referanse 11,7–15,3). CRP under 5 mg/L. Ferritin 45 µg/L.
        Alle verdier er innenfor normalområdet.
        Kopi til journal.
        """)
    static let henvisning = letter("henvisning", "Henvisning til MR hofte", type: .henvisning, person: "Ola",
                                   institution: "Fastlegekontoret Lia", date: "2024-02-10", text: """
        Henvisning til MR av høyre hofte.
        Smerter i hofte over flere måneder. Time hos fastlegen 3. februar viste nedsatt bevegelighet.
        Spørsmål om artrose.
        Kopi til journal.
        """)
    static let resept = letter("resept", "Resept Ibux", type: .resept, person: "Kari", institution: "Apotek 1 Torget",
                               date: "2023-06-05", text: """
        Resept
        Ibux 400 mg tabletter, 1 tablett ved behov mot smerter i kne, høyst 3 ganger daglig.
        Kopi til journal.
        """)
    static let vedtak = letter("vedtak", "Vedtak om fysioterapi", type: .vedtak, person: "Ola", institution: "Helfo",
                               date: "2022-09-01", text: """
        Vedtak
        Du har fått innvilget refusjon av egenandel etter ortopedisk operasjon.
        Beløpet utbetales til kontonummeret ditt innen fire uker.
        Kopi til journal.
        """)
    static let kommune = letter("kommune", "Brev om hjemmetjenester", type: .annet, person: nil,
                                institution: "Trondheim kommune", date: "2021-05-12", text: """
        Trondheim kommune har mottatt søknaden din om fysioterapi og hjemmetjenester.
        Du vil få svar innen tre uker.
        Kopi til journal.
        """)

    static let all = [innkalling, epikrise, labSvar, henvisning, resept, vedtak, kommune]
}

/// A fresh library in `<tmp>/bibliotek` (key from its own key file); `body` gets it and the temporary folder.
func withLibrary<T>(_ body: (Library, URL) throws -> T) throws -> T {
    try withTemporaryDirectory { directory in
        let library = try Library.open(LibraryLocation(directory: directory.appendingPathComponent("bibliotek")),
                                       environment: [:])
        return try body(library, directory)
    }
}

/// The short ids of documents.
func ids(_ documents: LibraryDocument...) -> Set<String> { Set(documents.map(\.shortID)) }

// MARK: - Search

@Suite struct LibrarySearchTests {
    /// The documents holding every word (hits holding only some come after them, marked `partial`).
    private func found(_ library: Library, _ text: String, filter: DocumentFilter = DocumentFilter()) throws -> Set<String> {
        Set(try library.index.search(text, filter: filter, limit: 100).hits.filter { $0.partial != true }.map(\.id))
    }

    @Test func partialMatchesComeLast() throws {
        try withLibrary { library, _ throws in
            try library.documents.record(Letters.all)
            let result = try library.index.search("time artrose", limit: 100)
            let full = result.hits.prefix { $0.partial != true }
            #expect(Set(full.map(\.id)) == ids(Letters.henvisning))
            #expect(result.hits.count > full.count, "documents with only one of the words follow")
            #expect(result.hits.dropFirst(full.count).allSatisfy { $0.partial == true })
        }
    }

    @Test func inflectionsCompoundsAndStems() throws {
        try withLibrary { library, _ throws in
            #expect(try library.documents.record(Letters.all) == 7)
            #expect(try library.documents.record(Letters.all) == 0, "already there: skipped")
            #expect(try found(library, "epikrisen") == ids(Letters.epikrise))
            #expect(try found(library, "ortopedi") == ids(Letters.innkalling, Letters.vedtak))
            #expect(try found(library, "blodprøve") == ids(Letters.labSvar))
            #expect(try found(library, "prøvesvar") == ids(Letters.labSvar), "compound found through the trigram vocabulary")
            #expect(try found(library, "Hemoglobin") == ids(Letters.labSvar))
            #expect(try found(library, "tannlege") == [])
        }
    }

    /// Words typed without æ, ø and å (or with aa, ae, oe for them), the start of a compound, and one
    /// typing error in a longer word find the letter; a letter with the word as typed comes first.
    @Test func anySpellingFindsTheLetterAndTheWordAsTypedComesFirst() throws {
        try withLibrary { library, _ throws in
            let typed = Letters.letter("typed", "Notat", type: .annet, person: "Ola", institution: "Legekontoret", date: "2024-04-01",
                                       text: "Skrevet paa en maskin uten norske bokstaver: blodprove tatt, resultatet kommer.")
            #expect(try library.documents.record(Letters.all + [typed]) == 8)
            for spelling in ["blodprove", "blodproeve", "Blodprøvesvar", "blodprovesvar", "blodprøbe", "blodpørve"] {
                #expect(try found(library, spelling).contains(Letters.labSvar.shortID), "\(spelling)")
            }
            #expect(try found(library, "blodprøve") == ids(Letters.labSvar, typed), "the word finds the compound it starts")
            let ordered = try library.index.search("blodprove", limit: 10).hits.map(\.id)
            #expect(ordered.first == typed.shortID && ordered.contains(Letters.labSvar.shortID), "the word as typed first: \(ordered)")
            let exact = try library.index.search("blodprøve", limit: 10).hits.map(\.id)
            #expect(exact.first == Letters.labSvar.shortID, "\(exact)")
            let ear = Letters.letter("ear", "Innkalling Øre-nese-hals", type: .innkalling, person: "Kari", institution: "Lia sykehus",
                                     date: "2024-05-01", text: "Time ved øre-nese-hals-poliklinikken. Ta med stønad fra NAV. Årlig kontroll.")
            #expect(try library.documents.record([ear]) == 1)
            for spelling in ["ore-nese-hals", "oere-nese-hals", "stonad", "aarlig kontroll", "\"ore nese hals\""] {
                #expect(try found(library, spelling).contains(ear.shortID), "\(spelling): short words and phrases too")
            }
            #expect(Set(SearchSpelling.unfoldings("ore")) == ["øre"] && SearchSpelling.unfoldings("aar").contains("år"))
            #expect(try found(library, "tannlegr").isEmpty, "no near word in the library: nothing")
            #expect(SearchSpelling.fold("påskeaften") == SearchSpelling.fold("paaskeaften") && SearchSpelling.fold("vær") == "var")
            #expect(SearchSpelling.oneEditApart(Array("blodprøve".unicodeScalars), Array("blodpørve".unicodeScalars)))
            #expect(!SearchSpelling.oneEditApart(Array("blodprøve".unicodeScalars), Array("blodpørbe".unicodeScalars)))
        }
    }

    /// Merging the index and the vocabulary's trigram index into one segment each finds the same.
    /// After it the merged index lies in the database file, not in the `-wal`.
    @Test func optimizingFindsTheSame() throws {
        try withLibrary { library, _ throws in
            for letter in Letters.all { try library.documents.record([letter]) }  // a segment each
            let queries = ["prøvesvar", "blodprøve", "smerter", "orto*", "time artrose", "kne OR hofte"]
            let before = try queries.map { try library.index.search($0, limit: 100) }
            try library.optimize()
            let wal = library.databaseURL.path + "-wal"
            #expect((try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) == 0,
                    "the merged index is in the database file, not left in the -wal")
            for (query, earlier) in zip(queries, before) {
                let after = try library.index.search(query, limit: 100)
                #expect(after.hits == earlier.hits && after.expression == earlier.expression, "\(query)")
            }
            #expect(try found(library, "prøvesvar") == ids(Letters.labSvar))
        }
    }

    /// The stemmer is not idempotent ("brystsmerter" → "brystsmert" → "brystsmer"): a vocabulary term
    /// written into the expression as a plain FTS5 string is stemmed a second time and no longer matches.
    @Test
    func compoundsWhoseStemChangesWhenStemmedAgain() throws {
        try withLibrary { library, _ throws in
            try library.documents.record(Letters.all)
            #expect(try found(library, "smerter") == ids(Letters.epikrise, Letters.henvisning, Letters.resept),
                    "«brystsmerter» holds «smerter»")
        }
    }

    @Test func titleHitOutranksBodyHit() throws {
        try withLibrary { library, _ throws in
            try library.documents.record(Letters.all)
            let result = try library.index.search("fysioterapi")
            #expect(result.hits.map(\.id) == [Letters.vedtak.shortID, Letters.kommune.shortID])
            #expect(result.total == 2)
            #expect(result.capped == false)
        }
    }

    @Test func operatorsPhrasesAndPrefixes() throws {
        try withLibrary { library, _ throws in
            try library.documents.record(Letters.all)
            #expect(try found(library, #""time hos fastlegen""#) == ids(Letters.henvisning),
                    "the epikrise has the three words, not side by side")
            #expect(try found(library, "time artrose") == ids(Letters.henvisning), "words need not be side by side")
            #expect(try found(library, "time kontroll") == ids(Letters.epikrise))
            #expect(try found(library, "orto*") == ids(Letters.innkalling, Letters.vedtak))
            #expect(try found(library, "kne OR hofte") == ids(Letters.innkalling, Letters.resept, Letters.henvisning))
            #expect(try found(library, "MR NOT kne") == ids(Letters.henvisning))
            #expect(try found(library, "MR -kne") == ids(Letters.henvisning))
            #expect(try found(library, "(kne OR hofte) AND smerter") == ids(Letters.resept, Letters.henvisning))
        }
    }

    @Test func filtersAloneAndCombined() throws {
        try withLibrary { library, _ throws in
            try library.documents.record(Letters.all)
            let everything = ids(Letters.innkalling, Letters.epikrise, Letters.labSvar, Letters.henvisning, Letters.resept,
                                 Letters.vedtak, Letters.kommune)
            let cases: [(DocumentFilter, Set<String>)] = [
                (DocumentFilter(), everything),
                (DocumentFilter(person: "kari"), ids(Letters.innkalling, Letters.labSvar, Letters.resept)),
                (DocumentFilter(person: "  Nordmann "), everything.subtracting(ids(Letters.kommune))),
                (DocumentFilter(type: .epikrise), ids(Letters.epikrise)),
                (DocumentFilter(from: CalendarDate(iso: "2024-01-01")), ids(Letters.innkalling, Letters.labSvar, Letters.henvisning)),
                (DocumentFilter(to: CalendarDate(iso: "2022-12-31")), ids(Letters.vedtak, Letters.kommune)),
                (DocumentFilter(from: CalendarDate(iso: "2023-06-05"), to: CalendarDate(iso: "2023-11-02")), ids(Letters.epikrise, Letters.resept)),
                (DocumentFilter(institution: "HAUKELAND"), ids(Letters.epikrise)),
                (DocumentFilter(institution: "kommune"), ids(Letters.kommune)),
                (DocumentFilter(institution: "Olavs hospital"), ids(Letters.innkalling)),
                (DocumentFilter(person: "Ola", from: CalendarDate(iso: "2023-01-01")), ids(Letters.epikrise, Letters.henvisning)),
                (DocumentFilter(person: "Kari", type: .innkalling, institution: "olav"), ids(Letters.innkalling)),
                (DocumentFilter(person: "Kari", type: .epikrise), []),
                (DocumentFilter(type: .labSvar, from: CalendarDate(iso: "2024-01-20"), to: CalendarDate(iso: "2024-01-20"), institution: "fürst"), ids(Letters.labSvar)),
            ]
            for (filter, expected) in cases {
                #expect(try found(library, "journal", filter: filter) == expected, "search \(filter)")
                #expect(Set(try library.documents.list(filter).map(\.id)) == expected, "list \(filter)")
                #expect(try library.documents.count(filter) == expected.count, "count \(filter)")
            }
            #expect(try library.documents.list(DocumentFilter(person: "%")).isEmpty, "% is a character, not a wildcard")
            #expect(try library.documents.list(DocumentFilter(person: "_ari")).isEmpty, "_ is a character, not a wildcard")
            #expect(try library.documents.list().map(\.id) == Letters.all.sorted { $0.documentDate > $1.documentDate }.map(\.shortID),
                    "newest letter first")
            #expect(try library.documents.list(limit: 2, offset: 1).map(\.id) == [Letters.henvisning.shortID, Letters.labSvar.shortID])
        }
    }

    /// The filter matches the household member the letter is filed under, or the name printed in it.
    @Test
    func personFilterMatchesMemberOrPrintedName() throws {
        try withLibrary { library, _ throws in
            var printed = Letters.labSvar
            printed.person = "K. Nordmann"  // as printed; filed under the household member "Kari"
            try library.documents.record([printed, Letters.epikrise])
            for filter in [DocumentFilter(person: "Kari"), DocumentFilter(person: "nordmann")] {
                let expected: Set<String> = filter.person == "Kari" ? ids(printed) : ids(printed, Letters.epikrise)
                #expect(Set(try library.documents.list(filter).map(\.id)) == expected, "list \(filter)")
                #expect(try found(library, "journal", filter: filter) == expected, "search \(filter)")
            }
        }
    }

    @Test func anyTextIsSafe() throws {
        try withLibrary { library, _ throws in
            try library.documents.record(Letters.all)
            let inputs = ["\"", "ortopedi AND", "*", "((", "NOT kne", "NEAR(", "a:b", "🦴", "🦴 kne", "", "   ", "-", "-kne",
                          "AND OR NOT", "title:kne", "kne\"", "\"kne", "^kne", "kne*)", "NEAR(kne hofte, 2)", "\u{0}",
                          "kne\u{0}hofte", "{title}: kne", "'", "''", "\\", "%", "_", "col:", ":", "OR", "(", ")", "*kne",
                          "k*ne", "e\u{301}", "\u{2}", "Ø", "å", String(repeating: "(", count: 500),
                          String(repeating: "kne ", count: 300)]
            for input in inputs {
                do {
                    _ = try library.index.search(input)
                } catch let failure as LibraryFailure {
                    #expect(failure.code == .emptyQuery, "\(input.debugDescription)")
                } catch {
                    Issue.record("\(input.debugDescription) threw \(type(of: error)): \(error)")
                }
            }
            #expect(try found(library, "ortopedi AND") == ids(Letters.innkalling, Letters.vedtak))
            #expect(throws: LibraryFailure.self) { try library.index.search("NOT kne") }
        }
    }

    @Test func snippetsMarkTheHits() throws {
        try withLibrary { library, _ throws in
            try library.documents.record(Letters.all)
            let hit = try #require(try library.index.search("hemoglobin").hits.first)
            let snippet = try #require(hit.snippet)
            #expect(snippet.contains(SearchIndex.markStart + "Hemoglobin" + SearchIndex.markEnd))
            #expect(!snippet.contains("\n"), "snippets are one line")
            #expect(hit.score != nil)
            #expect(hit.title == Letters.labSvar.title)
            let result = try library.index.search("blodprøve")
            #expect(result.highlightTerms == ["blodprøve"])
            #expect(result.hits.first?.snippet?.contains(SearchIndex.markStart + "blodprøvesvar" + SearchIndex.markEnd) == true)
            let compound = try #require(try library.index.search("prøvesvar").hits.first?.snippet)
            #expect(compound.contains(SearchIndex.markStart + "blodprøvesvar" + SearchIndex.markEnd), "a compound the word stands in")
            let prefixed = try library.index.search("orto*").hits.compactMap(\.snippet)
            #expect(prefixed.contains { $0.contains(SearchIndex.markStart + "Ortopedisk" + SearchIndex.markEnd) }, "\(prefixed)")
            #expect(prefixed.contains { $0.contains(SearchIndex.markStart + "ortopedisk" + SearchIndex.markEnd) }, "\(prefixed)")
            let lines = try #require(try library.index.search("ibux").hits.first?.snippet)
            #expect(lines.hasPrefix("Resept · " + SearchIndex.markStart + "Ibux" + SearchIndex.markEnd + " 400 mg"), "\(lines)")
            let inflected = try #require(try library.index.search("epikrisen").hits.first?.snippet)
            #expect(inflected.contains(SearchIndex.markStart + "Epikrise" + SearchIndex.markEnd), "the word's own stem")
        }
    }

    /// The window ranked is the newest matches wherever in the library they lie: a search walks
    /// the newest eighth of the rows first and the older ones up when they likely hold few
    /// matches (down again when they hold more than the window has room for).
    @Test func theWindowIsTheNewestMatchesWhereverTheyLie() throws {
        try withLibrary { library, _ throws in
            // Filed oldest first: 600 letters with «gammel», the first its best; 300 of them with
            // «kvist», the first its best; every third with «trekant»; then 200 with «ny».
            var documents: [LibraryDocument] = []
            for index in 0..<800 {
                var words = index < 600 ? ["gammel"] : ["ny"]
                if index < 300 { words.append("kvist") }
                if index % 3 == 0 { words.append("trekant") }
                let title = index == 0 ? "Gammel gammel kvist kvist trekant trekant" : "Notat \(index)"
                documents.append(LibraryDocument(sha256: Letters.sha("vindu-\(index)"), sourceName: "\(index).jpg",
                                                 title: "2020-01-02 \(title)", docType: .annet, documentDate: "2020-01-02",
                                                 text: "Notat nummer \(index): \(words.joined(separator: " ")) og mer tekst."))
            }
            #expect(try library.documents.record(documents) == documents.count)
            let oldest = documents[0].shortID

            let capped = try library.index.search("gammel", limit: 25)
            #expect(capped.capped && capped.total == SearchIndex.rankingLimit + 1)
            let window = Set(documents[100..<600].map(\.shortID))
            #expect(capped.hits.count == 25 && capped.hits.allSatisfy { window.contains($0.id) }, "the newest 500 of them")

            for (word, count) in [("kvist", 300), ("trekant", 267)] {
                let result = try library.index.search(word, limit: 500)
                #expect(!result.capped && result.total == count, "\(word)")
                #expect(result.hits.count == count && result.hits.first?.id == oldest, "\(word): all ranked, the best first")
                let scores = result.hits.compactMap(\.score)
                #expect(scores == scores.sorted())
            }
        }
    }

    @Test func rankingIsCappedOnHugeResultSets() throws {
        try withLibrary { library, _ throws in
            // The oldest document matches best, but only the newest `rankingLimit` are ranked.
            var documents = [LibraryDocument(sha256: Letters.sha("bulk-best"), sourceName: "best.jpg",
                                             title: "2020-01-01 Felles felles felles", docType: .annet,
                                             documentDate: "2020-01-01", text: "Felles felles felles felles.")]
            let extra = SearchIndex.rankingLimit + 100
            for index in 0..<extra {
                let words = String(repeating: "ord ", count: index % 7)
                documents.append(LibraryDocument(sha256: Letters.sha("bulk-\(index)"), sourceName: "\(index).jpg",
                                                 title: "2020-01-02 Notat \(index)", docType: .annet,
                                                 documentDate: "2020-01-02", text: "Felles notat \(words)nummer \(index)."))
            }
            #expect(try library.documents.record(documents) == extra + 1)
            let result = try library.index.search("felles", limit: 25)
            #expect(result.capped)
            #expect(result.total == SearchIndex.rankingLimit + 1)
            #expect(result.hits.count == 25)
            let scores = result.hits.compactMap(\.score)
            #expect(scores.count == 25)
            #expect(scores == scores.sorted(), "best (lowest bm25) first")
            #expect(!result.hits.contains { $0.id == Letters.sha("bulk-best").prefix(10) })
            #expect(result.notes.contains { $0.norwegian.contains("\(SearchIndex.rankingLimit)") })
            let narrow = try library.index.search("felles", filter: DocumentFilter(from: CalendarDate(iso: "2020-01-01"), to: CalendarDate(iso: "2020-01-01")))
            #expect(!narrow.capped)
            #expect(narrow.hits.map(\.id) == [String(Letters.sha("bulk-best").prefix(10))])
        }
    }
}

