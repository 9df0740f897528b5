import ArkivatorCore
@testable import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// Where the numbers in doubt stand on the pages (migration 18): kept with the letter, read
/// back, gone with a number a person put right, and back with the OCR's own reading.
@Suite struct NumberMarkTests {
    static let version = "test-1.0"
    static let text = "Blodprøver\nHemoglobin 1O,5 g/dL\nKreatinin 88 µmol/L\u{0C}Side to\nCRP 5O mg/L"

    static func letter() -> LibraryDocument {
        var document = Letters.letter("tall", "Svar på blodprøver", type: .labSvar, person: "Kari",
                                      institution: "Helse Vestvik", date: "2024-10-01", text: text)
        document.pages = [LibraryDocument.Page(number: 1, ocrConfidence: 0.8, width: 2480, height: 3508),
                          LibraryDocument.Page(number: 2, ocrConfidence: 0.8, width: 2480, height: 3508)]
        document.numberMarks = [mark("1O,5", page: 1, box: [620, 410, 160, 48]), mark("5O", page: 2, box: [300, 520, 70, 46])]
        return document
    }

    static func mark(_ number: String, page: Int, box: [Int]) -> NumberMark {
        let scalars = Array(text.unicodeScalars), wanted = Array(number.unicodeScalars)
        let start = (0...(scalars.count - wanted.count)).first { Array(scalars[$0..<($0 + wanted.count)]) == wanted } ?? 0
        return NumberMark(page: page, box: box, text: number, start: start, length: wanted.count)
    }

    @Test func theMarksAreKeptWithTheLetterAndReadBack() throws {
        try withLibrary { library, _ throws in
            #expect(try library.documents.record([Self.letter()]) == 1)
            let stored = try library.documents.document(Self.letter().shortID)
            #expect(stored.numberMarks == Self.letter().numberMarks)
            #expect(stored.numberMarks?.allSatisfy(\.hasBox) == true)

            var plain = Letters.letter("uten", "Innkalling", type: .innkalling, person: "Kari", institution: nil,
                                       date: "2024-10-02", text: "Innkalling til time.")
            plain.numberMarks = []
            try library.documents.record([plain])
            #expect(try library.documents.document(plain.shortID).numberMarks == nil, "none kept reads as none")
        }
    }

    @Test func aNumberPutRightLosesItsMarkAndTheOCRReadingBringsItBack() throws {
        try withLibrary { library, _ throws in
            try library.documents.record([Self.letter()])
            let id = Self.letter().shortID
            // The first number put right, a word added before the second: its mark moves along.
            let corrected = Self.text.replacingOccurrences(of: "1O,5", with: "10,5").replacingOccurrences(of: "CRP", with: "S-CRP målt")
            let result = try library.documents.correctText(id, to: corrected, programVersion: Self.version)
            let kept = try #require(result.document.numberMarks)
            #expect(kept.map(\.text) == ["5O"], "the number put right is no longer in doubt")
            let second = try #require(kept.first)
            #expect(Array(corrected.unicodeScalars)[second.start..<(second.start + second.length)].map(String.init).joined() == "5O")
            #expect(second.box == [300, 520, 70, 46] && second.page == 2)

            let all = Self.text.replacingOccurrences(of: "1O,5", with: "10,5").replacingOccurrences(of: "5O", with: "50")
            #expect(try library.documents.correctText(id, to: all, programVersion: Self.version).document.numberMarks == nil)

            let restored = try library.documents.restoreOCRText(id, programVersion: Self.version)
            #expect(restored.document.numberMarks == Self.letter().numberMarks, "the OCR's reading comes back with its marks")
        }
    }

    /// A library made before migration 18 gets the column; its letters have no marks.
    @Test func aLibraryFromBeforeTheMarksGetsTheColumn() throws {
        try withTemporaryDirectory { dir in
            let location = LibraryLocation(directory: dir.appendingPathComponent("bibliotek"))
            let old = try Database.open(library: location, migrations: Array(Migrations.all.prefix { $0.version <= 17 }))
            #expect(try old.migrate().first == 18)
            let columns = try old.rows("SELECT name FROM pragma_table_info('documents')").compactMap { $0[0].string }
            #expect(columns.contains("number_marks"))
            let versions = try old.rows("SELECT name FROM pragma_table_info('text_versions')").compactMap { $0[0].string }
            #expect(versions.contains("number_marks"))
        }
    }
}
