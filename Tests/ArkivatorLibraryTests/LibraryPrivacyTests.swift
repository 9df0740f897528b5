import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// Fødselsnumre in letters: masked in the database, sealed with the library key, shown only on request.
@Suite struct LibraryPrivacyTests {
    static let version = "test-1.0"
    /// Written as 11 digits in the letter.
    static let plain = TestNumber.valid("120384")
    /// Written as `DDMMYY NNNNN` in the letter.
    static let other = TestNumber.valid("010190", from: 300)
    static func spaced(_ number: String) -> String { "\(number.prefix(6)) \(number.suffix(5))" }

    /// Every way the two numbers could leak.
    static let forbidden = [plain, spaced(plain), other, spaced(other)]

    static let letter = Letters.letter("fnr", "Epikrise Ortopedisk avdeling", type: .epikrise, person: "Kari",
                                       institution: "St. Olavs hospital", date: "2024-04-02", text: """
        Epikrise
        Pasient: Kari Nordmann, fødselsnummer \(plain).
        Pårørende: Ola Nordmann, f.nr. \(spaced(other)).
        Innlagt for artroskopi av venstre kne. Kontroll hos fastlegen om tre uker.
        Kopi til journal.
        """)

    /// The text as the library shows it without `revealNumbers`.
    static let masked = letter.text.replacingOccurrences(of: plain, with: "120384 •••••")
        .replacingOccurrences(of: spaced(other), with: "010190 •••••")

    /// Fails for every file in `urls` (that exists) whose bytes hold a number.
    private func expectNoNumbers(_ urls: [URL], _ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for url in urls where FileManager.default.fileExists(atPath: url.path) {
            let bytes = try Data(contentsOf: url)
            for number in Self.forbidden {
                #expect(!bytes.contains(number), "\(number) in \(url.lastPathComponent) after \(step)",
                        sourceLocation: sourceLocation)
            }
        }
    }

    private func databaseFiles(_ library: Library) -> [URL] {
        ["", "-wal", "-shm"].map { URL(fileURLWithPath: library.databaseURL.path + $0) }
    }

    @Test func numbersNeverReachTheDatabaseFiles() throws {
        try withLibrary { library, directory throws in
            #expect(!Self.plain.isEmpty && !Self.other.isEmpty && Self.plain != Self.other)
            var letter = Self.letter
            letter.title = "2024-04-02 Epikrise for \(Self.plain)"
            letter.keywords = ["kne", "fnr \(Self.spaced(Self.plain))"]
            try library.documents.record(Letters.all + [letter])
            let database = databaseFiles(library)
            #expect(FileManager.default.fileExists(atPath: database[1].path), "the -wal holds the new pages")
            try expectNoNumbers(database, "record")

            let result = try library.index.search("artroskopi")
            #expect(result.hits.map(\.id) == [letter.shortID])
            #expect(result.hits.first?.title == "2024-04-02 Epikrise for 120384 •••••")
            let snippet = try #require(try library.index.search("pårørende").hits.first?.snippet)
            #expect(snippet.contains("010190 •••••"), "\(snippet)")
            for number in Self.forbidden { #expect(!snippet.contains(number)) }
            for input in [Self.plain, Self.spaced(Self.other), "\"\(Self.plain)\""] {
                _ = try? library.index.search(input)
            }
            try expectNoNumbers(database, "search")

            try library.documents.edit(letter.shortID, DocumentChanges(title: "Epikrise etter artroskopi", date: CalendarDate(iso: "2024-04-03")),
                             programVersion: Self.version)
            #expect(try library.documents.document(letter.shortID, revealNumbers: true).text == letter.text, "edit keeps the numbers")
            try expectNoNumbers(database, "edit")

            let backup = directory.appendingPathComponent("kopi.sqlite")
            #expect(try library.backup(to: backup) == 8)
            try expectNoNumbers(database + [backup], "backup")
            #expect(try posixMode(backup) == 0o600)
        }
    }

    @Test func numbersAreShownOnlyOnRequest() throws {
        try withLibrary { library, _ throws in
            try library.documents.record([Self.letter, Letters.labSvar])
            let revealed = try library.documents.document(Self.letter.shortID, revealNumbers: true)
            #expect(revealed.text == Self.letter.text)
            #expect(revealed.fodselsnummerCount == 2)
            let hidden = try library.documents.document(Self.letter.shortID)
            #expect(hidden.text == Self.masked)
            #expect(hidden.fodselsnummerCount == 2)
            for number in Self.forbidden { #expect(!hidden.text.contains(number)) }
            #expect(try library.documents.document(Letters.labSvar.shortID, revealNumbers: true).fodselsnummerCount == 0)
            // A near miss is not a number (a wrong control digit); 6 + 5 digits with OCR's two spaces
            // is, as the classifier finds it (one detector), so it is masked too.
            var near = Letters.resept
            near.text = "Referanse \(TestNumber.wrongControl(Self.plain)) og \(Self.plain.prefix(6))  \(Self.plain.suffix(5))."
            try library.documents.record([near])
            let stored = try library.documents.document(near.shortID)
            #expect(stored.fodselsnummerCount == 1)
            #expect(stored.text == "Referanse \(TestNumber.wrongControl(Self.plain)) og \(Self.plain.prefix(6)) •••••.")
            #expect(try library.documents.document(near.shortID, revealNumbers: true).text == near.text)
        }
    }

    @Test func redactMasksTheNumbersForGood() throws {
        try withLibrary { library, _ throws in
            let filed = try Archive.file(library, Self.letter)
            let docx = try #require(filed.files.first { $0.kind == .docx })
            #expect(try library.documents.redact(filed.shortID, programVersion: Self.version) == 2)
            let revealed = try library.documents.document(filed.shortID, revealNumbers: true)
            #expect(revealed.text == Self.masked)
            #expect(revealed.fodselsnummerCount == 0)
            #expect(revealed.files == filed.files)
            #expect(try Data(contentsOf: docx.url).starts(with: Data("PK".utf8)), "the .docx is written again")
            #expect(try library.documents.redact(filed.shortID, programVersion: Self.version) == 0)
            #expect(try library.index.search("artroskopi").hits.map(\.id) == [filed.shortID])
            try expectNoNumbers(databaseFiles(library), "redact")
        }
    }

    @Test func anotherKeyCannotOpenTheNumbers() throws {
        try withTemporaryDirectory { directory in
            let location = LibraryLocation(directory: directory.appendingPathComponent("bibliotek"))
            let library = try Library.open(location, environment: [:])
            try library.documents.record([Self.letter, Letters.labSvar])
            let otherKey = Data(repeating: 7, count: 32).base64EncodedString()
            let stranger = try Library.open(location, environment: ["ARKIVATOR_KEY": otherKey])
            #expect(failureCode { _ = try stranger.documents.document(Self.letter.shortID, revealNumbers: true) } == .wrongKey)
            #expect(try stranger.documents.document(Self.letter.shortID).text == Self.masked)
            #expect(try stranger.documents.document(Letters.labSvar.shortID, revealNumbers: true).text == Letters.labSvar.text)
            #expect(try stranger.index.search("artroskopi").hits.count == 1)
            #expect(failureCode {
                try stranger.documents.edit(Self.letter.shortID, DocumentChanges(title: "Ny"), programVersion: Self.version)
            } == .wrongKey)
            #expect(failureCode { try stranger.documents.redact(Self.letter.shortID, programVersion: Self.version) } == .wrongKey)

            let keyFile = location.directory.appendingPathComponent(LibraryKey.fileName)
            let ownKey = try Data(contentsOf: keyFile).base64EncodedString()
            let friend = try Library.open(location, environment: ["ARKIVATOR_KEY": ownKey])
            #expect(try friend.documents.document(Self.letter.shortID, revealNumbers: true).text == Self.letter.text)
            withExtendedLifetime(library) {}
        }
    }

    @Test func filesArePrivate() throws {
        try withLibrary { library, _ throws in
            try Archive.file(library, Self.letter)
            let folder = library.location.directory
            #expect(try posixMode(folder) == 0o700)
            for name in [Database.fileName, Database.fileName + "-wal", Database.fileName + "-shm", LibraryKey.fileName,
                         "filing.lock"] {
                let url = folder.appendingPathComponent(name)
                #expect(FileManager.default.fileExists(atPath: url.path), "\(name)")
                #expect(try posixMode(url) == 0o600, "\(name)")
            }
            _ = try library.documents.delete(Self.letter.shortID)
            #expect(try posixMode(library.trashRoot) == 0o700)
            #expect(try posixMode(library.trashRoot.appendingPathComponent(Self.letter.shortID)) == 0o700)
        }
    }

    @Test
    func numbersInTheSourceNameAreMaskedToo() throws {
        try withLibrary { library, _ throws in
            var letter = Letters.henvisning
            letter.sourceName = "skann \(Self.plain).jpg"
            try library.documents.record([letter])
            #expect(!(try library.documents.document(letter.shortID).sourceName.contains(Self.plain)))
            try expectNoNumbers(databaseFiles(library), "record with the number in the file name")
        }
    }
}
