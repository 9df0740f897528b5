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

    /// `pdf` with `edit` made to its text (bytes as Latin-1), its cross-reference table written
    /// again for where the objects now stand, as a file that claims to be ours would be.
    static func edited(_ pdf: [UInt8], _ edit: (String) -> String) throws -> [UInt8] {
        let text = try #require(String(data: Data(pdf), encoding: .isoLatin1))
        let mark = try #require(text.range(of: "\nxref\n", options: .backwards))
        let body = edit(String(text[...mark.lowerBound]))
        let trailer = try #require(text.range(of: "trailer\n", options: .backwards))
        let size = try #require(text[trailer.upperBound...].split(separator: " ").dropFirst(2).first.flatMap { Int($0) })
        let bytes = try #require(body.data(using: .isoLatin1))
        var table = "xref\n0 \(size)\n0000000000 65535 f \n"
        for number in 1..<size {
            let at = try #require(bytes.firstRange(of: Data("\n\(number) 0 obj\n".utf8))).lowerBound + 1
            table += String(format: "%010d 00000 n \n", at)
        }
        let end = String(text[trailer.lowerBound...]).replacingOccurrences(
            of: #"startxref\n\d+"#, with: "startxref\n\(bytes.count)", options: .regularExpression)
        return [UInt8](bytes) + Array((table + end).utf8)
    }

    @Test func aFileThatClaimsToBeOursWithImpossibleNumbersIsNotRead() throws {
        let written = SearchablePDF(title: "Brev", pages: [Self.page(["Innkalling til poliklinikken"])]).data()
        #expect(try SearchablePDF(reading: Self.edited(written) { $0 })?.pages[0].lines.count == 1)
        // A line drawn at an infinite place is left out; the page is read.
        let far = try Self.edited(written) { text in
            // Of the same length, so the content stream keeps its /Length.
            guard let found = text.range(of: #"1 0 0 1 [0-9.]+ "#, options: .regularExpression) else { return text }
            let x = text[found].dropFirst(8).dropLast()
            return text.replacingCharacters(in: found, with: "1 0 0 1 " + String(repeating: "0", count: max(0, x.count - 4)) + "9e99 ")
        }
        #expect(try #require(SearchablePDF(reading: far)).pages[0].lines.isEmpty)
        // A stream longer than any file, an object before the file's start, a table of more rows than any.
        let long = try Self.edited(written) {
            $0.replacingOccurrences(of: #"/Length [0-9]+"#, with: "/Length 9223372036854775807", options: .regularExpression)
        }
        #expect(SearchablePDF(reading: long) == nil)
        let table = try #require(written.indices.reversed().first { written[$0...].starts(with: Array("\nxref\n".utf8)) }) + 6
        let count = try #require(written[table...].firstIndex(of: 10))
        // The page tree's row (after the free object's and the catalog's, 20 bytes each).
        var before = written
        before.replaceSubrange((count + 41)..<(count + 51), with: Array("-000000009".utf8))
        #expect(SearchablePDF(reading: before) == nil)
        var rows = written
        rows.replaceSubrange(table..<count, with: Array("0 9223372036854775807".utf8))
        #expect(SearchablePDF(reading: rows) == nil)
    }
}
