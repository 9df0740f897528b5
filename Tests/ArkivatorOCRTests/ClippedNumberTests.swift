@testable import ArkivatorOCR
import Testing

/// A number whose last sign Tesseract left out ("24/09091-1" for "24/09091-11"), its box
/// framed without the sign, which stays on the page with no word on it: found, and only such a
/// number.
@Suite struct ClippedNumberTests {
    private static let words = [PageLayout.Word(text: "Vår", confidence: 0.93, box: [222, 793, 75, 39]),
                                PageLayout.Word(text: "ref.:", confidence: 0.92, box: [313, 799, 84, 33]),
                                PageLayout.Word(text: "24/09091-1", confidence: 0.92, box: [419, 799, 244, 36])]
    /// The marks of the number's line on the black and white page (a real reading's): its signs,
    /// the last 1 among them, and the colon's two points.
    private static let marks = [[419, 799, 21, 33], [445, 799, 25, 33], [472, 799, 15, 36], [489, 799, 22, 33],
                                [517, 799, 22, 33], [545, 799, 22, 33], [573, 799, 22, 33], [603, 799, 17, 33],
                                [628, 819, 11, 3], [646, 799, 17, 33], [674, 799, 17, 33], [392, 813, 5, 6], [392, 826, 5, 6]]

    private func layout(_ words: [PageLayout.Word]) -> PageLayout {
        PageLayout.oneBlock(words, box: [200, 780, 700, 60])
    }

    @Test func aSignLeftOutAfterANumberIsFound() throws {
        let found = layout(Self.words).clippedNumbers(marks: Self.marks)
        #expect(found.count == 1)
        let clipped = try #require(found.first)
        #expect(clipped.after && clipped.fragment.words == 2..<3)
        // Over the mark and half a word height beyond; on the left halfway to "ref.:".
        #expect(clipped.fragment.box == [408, 781, 709 - 408, 72])
        #expect(clipped.fragment.span == 799...835)
        // And before it: "4/09091-11" with its 2 left out.
        let before = [Self.words[0], Self.words[1], PageLayout.Word(text: "4/09091-11", confidence: 0.92, box: [445, 799, 246, 36])]
        let first = try #require(layout(before).clippedNumbers(marks: Self.marks).first)
        #expect(!first.after && first.fragment.words == 2..<3)
    }

    @Test func otherInkBesideANumberIsNoSign() {
        let marks = Array(Self.marks.dropLast(3))
        let besideLast = { (mark: [Int]) in layout(Self.words).clippedNumbers(marks: marks + [mark]) }
        #expect(layout(Self.words).clippedNumbers(marks: marks).isEmpty)
        // A table's rule: thinner than a fifth of its height, and taller than the print.
        #expect(besideLast([674, 790, 3, 50]).isEmpty)
        #expect(besideLast([674, 799, 4, 33]).isEmpty)
        // A point, a mark too far, or one above the line.
        #expect(besideLast([674, 826, 6, 6]).isEmpty)
        #expect(besideLast([684, 799, 17, 33]).isEmpty)
        #expect(besideLast([674, 770, 17, 33]).isEmpty)
        // A sign that a word covers: the next word's.
        var covered = Self.words
        covered.append(PageLayout.Word(text: "1", confidence: 0.9, box: [672, 799, 19, 33]))
        #expect(layout(covered).clippedNumbers(marks: Self.marks).isEmpty)
        // A word with no digit is no number.
        var letters = Self.words
        letters[2].text = "referanse"
        #expect(layout(letters).clippedNumbers(marks: Self.marks).isEmpty)
    }
}
