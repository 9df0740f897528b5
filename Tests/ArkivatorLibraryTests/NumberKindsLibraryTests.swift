import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// An H-number (month + 40) in a row written before the detector knew that kind, as a library
/// made by an older version holds it: masked whenever the row is read and in an export, and gone
/// from the database file's bytes (row, index, term counts, free pages, `-wal`) after `redact`.
@Suite struct NumberKindsLibraryTests {
    /// 3 May 1990 as an H-number: month 45.
    static let hNumber = TestNumber.valid("034590")
    static let text = "Epikrise\nPasient: Kari Nordmann, hjelpenummer \(hNumber).\nInnlagt for artroskopi av venstre kne."

    func databaseBytes(_ library: Library) throws -> Data {
        try ["", "-wal"].map { URL(fileURLWithPath: library.databaseURL.path + $0) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
            .reduce(Data()) { $0 + (try Data(contentsOf: $1)) }
    }

    @Test func anOldRowIsMaskedWhenReadAndRedactCleansTheFile() throws {
        try withLibrary { library, directory throws in
            #expect(Self.hNumber.count == 11 && (try? Fodselsnummer(Self.hNumber))?.series == .hNumber)
            let letter = Letters.letter("hnr", "Epikrise Ortopedisk avdeling", type: .epikrise, person: "Kari",
                                        institution: "St. Olavs hospital", date: "2024-04-02", text: Self.text)
            let filed = try Archive.file(library, letter)
            #expect(try library.documents.document(filed.shortID).fodselsnummerCount == 1, "found and sealed when filed")
            #expect(!(try databaseBytes(library)).contains(Self.hNumber))

            // As an older version stored it: in clear, in the row and in the index.
            let raw = try Database.open(library: library.location)
            try raw.execute("UPDATE documents SET text = ?, fnr_sealed = NULL, fnr_count = 0 WHERE sha256 = ?",
                            [Self.text, filed.sha256])
            _ = try library.reindex()
            try raw.checkpoint()
            #expect(try databaseBytes(library).contains(Self.hNumber), "the old row holds the number")

            let read = try library.documents.document(filed.shortID)
            #expect(!read.text.contains(Self.hNumber) && read.text.contains("034590 •••••"), "\(read.text)")
            #expect(read.fodselsnummerCount == 1)
            let export = directory.appendingPathComponent("eksport")
            _ = try library.export(to: export)
            let json = try Data(contentsOf: export.appendingPathComponent("arkivator-eksport.json"))
            #expect(!json.contains(Self.hNumber) && json.contains("034590 •••••"))

            #expect(try library.documents.redact(filed.shortID, programVersion: "test") == 1)
            #expect(!(try databaseBytes(library)).contains(Self.hNumber), "the number is gone from the file")
            #expect(try library.index.search(Self.hNumber).hits.isEmpty)
            #expect(try library.index.search("artroskopi").hits.map(\.id) == [filed.shortID])
            let revealed = try library.documents.document(filed.shortID, revealNumbers: true)
            #expect(!revealed.text.contains(Self.hNumber) && revealed.fodselsnummerCount == 0)
        }
    }
}
