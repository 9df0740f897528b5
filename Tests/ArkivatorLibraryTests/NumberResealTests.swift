import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// A library whose letters were filed by an older detector that did not read a number written
/// with a dash or a dot in groups: opened once by this one, the numbers are masked and sealed in
/// the stored text, the index and the explanation, and no longer in the database file's bytes;
/// `show` still has them.
@Suite struct NumberResealTests {
    static let dashed = TestNumber.valid("140385"), grouped = TestNumber.valid("230774")
    static func part(_ number: String, _ range: Range<Int>) -> String { String(Array(number)[range]) }

    @Test func numbersAnOlderDetectorMissedAreSealedOnce() throws {
        let dash = Self.part(Self.dashed, 0..<6) + "-" + Self.part(Self.dashed, 6..<11)
        let groups = Self.part(Self.grouped, 0..<2) + "." + Self.part(Self.grouped, 2..<4) + "." + Self.part(Self.grouped, 4..<6)
            + " " + Self.part(Self.grouped, 6..<11)
        let text = "Epikrise\nPasient: Kari Nordmann, f.nr. \(dash)\nMor: \(groups)\nKontroll om tre uker."
        let letter = Letters.letter("gammel", "Epikrise Ortopedisk avdeling", type: .epikrise, person: "Kari",
                                    institution: "St. Olavs hospital", date: "2024-04-02", text: text)
        try withTemporaryDirectory { directory in
            let location = LibraryLocation(directory: directory.appendingPathComponent("bibliotek"))
            do {
                let library = try Library.open(location, environment: [:])
                try library.documents.record([letter])
            }
            // As an older arkivator stored it: the numbers in clear in the text, the index and the explanation.
            do {
                let database = try Database(url: location.directory.appendingPathComponent(Database.fileName))
                try database.execute("UPDATE documents SET text = ?, fnr_sealed = NULL, fnr_count = 0", [text])
                try database.execute("INSERT INTO documents_fts(documents_fts) VALUES ('rebuild')")
                try database.execute("""
                    INSERT INTO explanations (document_id, what, steps, model, text_sha256, created_at)
                    SELECT id, ?, '[]', 'test-model', '', '2024-04-03T10:00:00Z' FROM documents
                    """, ["Epikrise. Tall sett: \(dash)."])
                try database.execute("DELETE FROM settings WHERE key = 'fnr_detector'")
                #expect(try database.rows("SELECT rowid FROM documents_fts WHERE documents_fts MATCH ?",
                                          [Self.part(Self.dashed, 6..<11)]).count == 1, "the old index finds the number")
                try database.checkpoint()
            }
            let library = try Library.open(location, environment: [:])
            let shown = try library.documents.document(letter.shortID)
            #expect(shown.text == "Epikrise\nPasient: Kari Nordmann, f.nr. \(Self.dashed.prefix(6)) •••••\n"
                    + "Mor: \(Self.grouped.prefix(6)) •••••\nKontroll om tre uker.")
            #expect(shown.fodselsnummerCount == 2)
            #expect(try library.documents.document(letter.shortID, revealNumbers: true).text == text, "show still has them")
            #expect(try library.explanations.explanation(of: letter.shortID)?.explanation.what == "Epikrise. Tall sett: \(Self.dashed.prefix(6)) •••••.")
            for number in [Self.dashed, Self.grouped] {
                #expect(try library.index.search(Self.part(number, 6..<11)).total == 0, "search finds \(number)")
            }
            for file in [Database.fileName, Database.fileName + "-wal"] {
                let url = location.directory.appendingPathComponent(file)
                guard let bytes = try? Data(contentsOf: url) else { continue }
                for form in [dash, groups, Self.part(Self.dashed, 6..<11), Self.part(Self.grouped, 6..<11)] {
                    #expect(!bytes.contains(form), "\(file) holds \(form)")
                }
            }
            // Once: opened again, nothing is done.
            #expect(try library.sealNumbersTheDetectorNowReads() == 0)
        }
    }
}
