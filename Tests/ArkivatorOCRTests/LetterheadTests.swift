import ArkivatorImaging
import ArkivatorOCR
import Foundation
import TestSupport
import Testing

/// A letterhead whose contact block stands beside a large name, the block's first lines at the
/// name's height, at the right margin or close beside the name (pages made by
/// `scripts/fixtures/make_letterheads.py`, their text beside them).
/// Tesseract reads the name and the small lines beside it as one line; the small lines are read
/// again at their own height, each comes out whole, and none twice.
@Suite struct LetterheadTests {
    @Test(arguments: ["beside-name-serif", "beside-name-serif-large", "beside-name-sans", "beside-name-sans-short",
                      "close-to-name-serif", "close-to-name-sans"])
    func theContactBlockBesideALargeNameIsReadLineByLine(_ stem: String) throws {
        let page = try #require(try Image.decodePages(Fixtures.bytes("letterheads/\(stem).png")).first)
        let truth = try Fixtures.text("letterheads/\(stem).txt").split(separator: "\n").map(String.init)
        let cleaned = try PageCleaner().clean(page)
        let text = try TesseractEngine(language: "nor").recognize(cleaned.text).text
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        // The name, the line under it and the contact block: the first six lines of the truth.
        for line in truth.prefix(6) {
            #expect(lines.filter { $0.contains(line) }.count == 1, "«\(line)» once in\n\(text)")
        }
    }
}
