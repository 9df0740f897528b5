import ArkivatorArchive
import Foundation
import Testing

/// The searchable PDF read back as it was written, and its text replaced line by line.
@Suite struct SearchablePDFReadingTests {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]

    static func page(_ lines: [String], top: Int = 300) -> SearchablePDF.Page {
        SearchablePDF.Page(jpeg: jpeg, width: 2480, height: 3508, dpi: 300, lines: lines.enumerated().map {
            SearchablePDF.Line(text: $0.element, box: [180 + 10 * $0.offset, top + 90 * $0.offset, 35 * $0.element.count, 54])
        })
    }

    @Test func aPDFWeWroteIsReadBackWithItsLinesWhereTheyWere() throws {
        let lines = ["Blodprøve (fastende) 3\\4 – «svar»", "Fødselsnummer 260187 •••••", "Æ ø å € …"]
        let written = SearchablePDF(title: "2024-03-05 Brev", pages: [Self.page(lines), SearchablePDF.Page(jpeg: Self.jpeg,
                                    width: 1240, height: 1754, dpi: 150, components: 3, lines: [])])
        let read = try #require(SearchablePDF(reading: written.data()))
        #expect(read.pages.count == 2)
        #expect(read.pages[0].jpeg == Self.jpeg && read.pages[0].width == 2480 && read.pages[0].height == 3508)
        #expect(abs(read.pages[0].dpi - 300) < 0.1 && abs(read.pages[1].dpi - 150) < 0.1 && read.pages[1].components == 3)
        #expect(read.pages[0].lines.map(\.text) == lines)
        for (a, b) in zip(written.pages[0].lines, read.pages[0].lines) {
            #expect(zip(a.box, b.box).allSatisfy { abs($0 - $1) <= 2 }, "\(a.box) read back as \(b.box)")
        }
        #expect(SearchablePDF(reading: Array("%PDF-1.4\n1 0 obj\n<< >>\nendobj\n".utf8)) == nil, "not one of ours")
        #expect(SearchablePDF(reading: []) == nil)
    }

    @Test func newTextTakesTheLinesOfTheOldOrIsSetOutOnAnEmptyPage() throws {
        let pdf = SearchablePDF(title: "Brev", pages: [Self.page(["Innkalling til pollklinikken", "Du har time 14. oktober."]),
                                                        Self.page([])])
        let fixed = pdf.replacingText("Innkalling til poliklinikken\nNy linje\nDu har time 14. oktober.\u{0C}Skrevet inn selv\nTo linjer")
        #expect(fixed.pages[0].lines.map(\.text) == ["Innkalling til poliklinikken Ny linje", "Du har time 14. oktober."])
        #expect(fixed.pages[0].lines.map(\.box) == pdf.pages[0].lines.map(\.box))
        #expect(fixed.pages[1].lines.map(\.text) == ["Skrevet inn selv", "To linjer"])
        #expect(fixed.pages[1].lines[1].box[1] > fixed.pages[1].lines[0].box[1], "one below the other")
        #expect(LineAlignment.withPageBreaks("a b c\n\nd e f", like: "a b c\u{0C}d e f") == "a b c\n\u{0C}d e f")
    }
}
