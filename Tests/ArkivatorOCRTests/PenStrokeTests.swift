@testable import ArkivatorOCR
import Testing

/// A signature drawn in one stroke and read as a word ("SNANS" for a squiggle under «Med venleg
/// helsing») is left out; print, whose letters are shapes of their own, stays, and so does a
/// word in large print whose letters touch no more than print's do.
@Suite struct PenStrokeTests {
    static let height = 34

    /// The marks of a printed word: one per letter.
    static func letters(_ box: [Int], count: Int) -> [[Int]] {
        (0..<count).map { [box[0] + $0 * box[2] / count, box[1], box[2] / count - 2, box[3]] }
    }

    @Test func aSignatureInOneStrokeIsNoWord() {
        let signature = PageLayout.Word(text: "SNANS", confidence: 0.70, box: [334, 438, 364, 71])
        let stroke = [330, 436, 372, 74]
        #expect(PageLayout.isPenStroke(signature, marks: [stroke], height: Self.height))
        // The same word over five letters' marks, or over a stroke of print's height, is print.
        #expect(!PageLayout.isPenStroke(signature, marks: Self.letters(signature.box, count: 5), height: Self.height))
        #expect(!PageLayout.isPenStroke(signature, marks: [[330, 450, 372, 40]], height: Self.height))
        // A stroke under part of the word only (an underline beneath a name) leaves it.
        #expect(!PageLayout.isPenStroke(signature, marks: [[334, 438, 150, 71]], height: Self.height))

        var page = PageLayout()
        page.startBlock(box: [281, 335, 400, 300])
        for (text, x) in [("Med", 281), ("venleg", 381), ("helsing", 531)] {
            page.add(PageLayout.Word(text: text, confidence: 0.96, box: [x, 335, 18 * text.count, 36]))
        }
        page.startLine()
        page.add(signature)
        page.startLine()
        page.add(PageLayout.Word(text: "Sofie", confidence: 0.96, box: [281, 532, 101, 37]))
        page.add(PageLayout.Word(text: "Dahl", confidence: 0.94, box: [400, 533, 87, 36]))
        let marks = [stroke] + [[281, 335, 85, 36], [381, 335, 131, 44], [531, 335, 140, 45], [281, 532, 101, 37], [400, 533, 87, 36]]
            .flatMap { Self.letters($0, count: 4) }
        #expect(page.dropPenStrokes(marks: marks, height: Self.height) == 1)
        let read = page.page()
        #expect(read.text == "Med venleg helsing\nSofie Dahl")
        #expect(read.droppedLines == 1, "left out, not silently")
    }
}
