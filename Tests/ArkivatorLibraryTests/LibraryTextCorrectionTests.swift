import ArkivatorArchive
import ArkivatorCore
@testable import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// Correcting a letter's text: the stored text, the index, the `.docx` and the searchable PDF's
/// text follow; every reading is kept; the OCR's own comes back; fødselsnumre stay sealed.
@Suite struct LibraryTextCorrectionTests {
    static let version = "test-1.0"

    static let ocrText = """
        Innkalling til pollklinikken
        Pasient: Kari Nordmann
        Du har time til kontroll 14. oktober.
        Med vennlig hilsen\u{0C}Side to av brevet
        Ta med legeliste.
        """

    /// A letter filed as the pipeline files it: the `.docx`, one page image and a searchable
    /// PDF of two pages whose text lines are the text's lines, one below the other.
    static func fileLetter(_ library: Library, text: String = ocrText,
                           low: [LibraryDocument.TextRange] = []) throws -> LibraryDocument {
        var document = Letters.letter("rettes", "Innkalling til kontroll", type: .innkalling, person: "Kari",
                                      institution: "Helse Vestvik", date: "2024-10-01", text: text)
        document.lowConfidence = low
        document.keywords = ["pollklinikken", "kontroll"]
        let folder = library.defaultArchiveRoot.appendingPathComponent("Kari")
        let docx = folder.appendingPathComponent("Dokumenter/\(document.title).docx")
        let image = folder.appendingPathComponent("Bilder/\(document.title).jpeg")
        let pdf = folder.appendingPathComponent("Bilder/\(document.title).pdf")
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        let pages = text.components(separatedBy: "\u{0C}").map { page in
            SearchablePDF.Page(jpeg: jpeg, width: 2480, height: 3508, lines: page.split(separator: "\n").enumerated().map {
                SearchablePDF.Line(text: String($0.element), box: [200, 300 + 80 * $0.offset, 40 * $0.element.count, 50])
            })
        }
        let bytes = SearchablePDF(title: document.title, pages: pages).data()
        return try library.documents.file(document) { reservation in
            try reservation.reserve([docx, image, pdf])
            try AtomicFile.createDirectory(docx.deletingLastPathComponent())
            try AtomicFile.createDirectory(image.deletingLastPathComponent())
            try AtomicFile.write(try DocumentFiling(programVersion: version).docx(for: document), to: docx)
            try AtomicFile.write(jpeg, to: image)
            try AtomicFile.write(bytes, to: pdf)
            return [ArchivedFile(kind: .docx, path: docx.path), ArchivedFile(kind: .image, page: 1, path: image.path),
                    ArchivedFile(kind: .pdf, path: pdf.path)]
        }
    }

    /// The letters that hold `word` itself (in quotes: a word typed otherwise would find its near spellings too).
    static func hits(_ library: Library, _ word: String) throws -> [String] {
        try library.index.search("\"" + word + "\"").hits.map(\.id)
    }

    static func pdfLines(_ document: LibraryDocument) throws -> [[SearchablePDF.Line]] {
        let url = try #require(document.files.pdf?.url)
        return try #require(SearchablePDF(reading: [UInt8](try Data(contentsOf: url)))).pages.map(\.lines)
    }

    static func docxText(_ document: LibraryDocument) throws -> String {
        let url = try #require(document.files.docx?.url)
        return try #require(try LetterDocx.read(from: url)).text
    }

    @Test func aCorrectedWordReachesEveryCopyAndTheOCRReadingComesBack() throws {
        try withLibrary { library, _ throws in
            let low = [LibraryDocument.TextRange(start: 0, length: 10)]  // "Innkalling"
            let misread = LibraryDocument.TextRange(start: 15, length: 13)  // "pollklinikken"
            let filed = try Self.fileLetter(library, low: low + [misread])
            #expect(try Self.hits(library, "poliklinikken").isEmpty)
            #expect(try Self.hits(library, "pollklinikken") == [filed.shortID])
            let before = try Self.pdfLines(filed)

            let corrected = Self.ocrText.replacingOccurrences(of: "pollklinikken", with: "poliklinikken")
            let result = try library.documents.correctText(filed.shortID, to: corrected.replacingOccurrences(of: "\n", with: "\r\n") + "\n",
                                                 programVersion: Self.version)
            #expect(result.changed && result.pdfRewritten)
            #expect(result.document.text == corrected)
            #expect(result.document.lowConfidence == low, "the corrected word's mark goes; the other stays")
            #expect(result.document.keywords == ["poliklinikken", "kontroll"], "a misread keyword follows the word")
            #expect(try Self.hits(library, "poliklinikken") == [filed.shortID])
            #expect(try Self.hits(library, "pollklinikken").isEmpty, "the old word is gone from the index")
            #expect(try Self.docxText(result.document).contains("Innkalling til poliklinikken"))
            let after = try Self.pdfLines(result.document)
            #expect(after.map { $0.map(\.text) } == corrected.components(separatedBy: "\u{0C}").map { $0.components(separatedBy: "\n") })
            #expect(zip(before.joined(), after.joined()).allSatisfy { abs($0.box[1] - $1.box[1]) <= 2 && abs($0.box[0] - $1.box[0]) <= 2 },
                    "each line stays where the OCR found it")

            let versions = try library.documents.textVersions(filed.shortID)
            #expect(versions.map(\.kind) == [.ocr, .corrected])
            #expect(versions.last?.changes == [TextDiff.Change(removed: "pollklinikken", added: "poliklinikken")])
            #expect(try !library.documents.correctText(filed.shortID, to: corrected, programVersion: Self.version).changed, "the same text: nothing")

            let restored = try library.documents.restoreOCRText(filed.shortID, programVersion: Self.version)
            #expect(restored.changed && restored.document.text == Self.ocrText)
            #expect(restored.document.lowConfidence == filed.lowConfidence)
            #expect(restored.document.keywords == ["pollklinikken", "kontroll"])
            #expect(try Self.hits(library, "poliklinikken").isEmpty)
            #expect(try Self.hits(library, "pollklinikken") == [filed.shortID])
            #expect(try Self.docxText(restored.document).contains("Innkalling til pollklinikken"))
            #expect(try Self.pdfLines(restored.document).map { $0.map(\.text) } == before.map { $0.map(\.text) })
            #expect(try library.documents.textVersions(filed.shortID).map(\.kind) == [.ocr, .corrected, .restored])
        }
    }

    @Test func aTextWithoutPageBreaksGetsTheLettersBackAndNewLinesJoinANeighbour() throws {
        try withLibrary { library, _ throws in
            let filed = try Self.fileLetter(library)
            // As `show --text` prints it: the page break as a blank line; one line added, one dropped.
            let flat = Self.ocrText.replacingOccurrences(of: "\u{0C}", with: "\n\n")
                .replacingOccurrences(of: "Pasient: Kari Nordmann\n", with: "Pasient: Kari Nordmann\nTelefon 12345678\n")
                .replacingOccurrences(of: "Med vennlig hilsen\n", with: "")
            let result = try library.documents.correctText(filed.shortID, to: flat, programVersion: Self.version)
            #expect(result.document.text.components(separatedBy: "\u{0C}").count == 2, "\(result.document.text)")
            #expect(result.document.text.hasSuffix("oktober.\u{0C}Side to av brevet\nTa med legeliste."))
            let lines = try Self.pdfLines(result.document)
            #expect(lines[0].map(\.text) == ["Innkalling til pollklinikken", "Pasient: Kari Nordmann Telefon 12345678",
                                             "Du har time til kontroll 14. oktober."])
            #expect(lines[1].map(\.text) == ["Side to av brevet", "Ta med legeliste."])
        }
    }

    @Test func aTypedNumberIsSealedAsOCRTextIsAndAMaskedOneKeepsItsNumber() throws {
        try withLibrary { library, _ throws in
            let old = TestNumber.valid("260187"), new = TestNumber.valid("150395")
            let text = "Innkalling til poliklinikken\nFødselsnummer \(old)\nDu har time til kontroll."
            let filed = try Self.fileLetter(library, text: text)
            let shown = try library.documents.document(filed.shortID)
            #expect(shown.text.contains("260187 •••••") && !shown.text.contains(old))

            // The page as a person sees it (masked), a word changed and a number typed in.
            let edited = shown.text.replacingOccurrences(of: "kontroll.", with: "kontroll. Barnets nummer \(new).")
            let result = try library.documents.correctText(filed.shortID, to: edited, programVersion: Self.version)
            let revealed = try library.documents.document(filed.shortID, revealNumbers: true)
            #expect(revealed.text.contains(old) && revealed.text.contains(new), "both numbers kept: \(revealed.text)")
            #expect(result.document.fodselsnummerCount == 2)
            let database = try Data(contentsOf: library.databaseURL) + ((try? Data(contentsOf: URL(fileURLWithPath: library.databaseURL.path + "-wal"))) ?? Data())
            #expect(!database.contains(new) && !database.contains(old), "no number in clear in the database or its versions")
            #expect(try Self.docxText(result.document).contains(new), "the .docx holds the text as the letter does, as for OCR text")

            // After `redact` the kept readings are masked for good: the OCR's reading comes back masked.
            try library.documents.redact(filed.shortID, programVersion: Self.version)
            let restored = try library.documents.restoreOCRText(filed.shortID, programVersion: Self.version)
            #expect(!restored.document.text.contains(old))
            #expect(try !library.documents.document(filed.shortID, revealNumbers: true).text.contains(old))
        }
    }

    @Test func aPublishStepCutShortIsFinishedAtTheNextStart() throws {
        try withLibrary { library, _ throws in
            let filed = try Self.fileLetter(library)
            let docx = try #require(filed.files.docx?.url)
            let temporary = AtomicFile.makeTemporaryURL(beside: docx)
            try AtomicFile.write(Array("ny".utf8), to: temporary)
            _ = try library.beginIntent("publish", paths: [[library.paths.stored(temporary.path), library.paths.stored(docx.path)]])
            #expect(try library.recover() == 1)
            #expect(try String(contentsOf: docx, encoding: .utf8) == "ny")
            #expect(!FileManager.default.fileExists(atPath: temporary.path))
        }
    }
}
