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

    /// A coloured logo beside a letterhead's name, taken out by the cleanup but for a few specks
    /// at its edges, read as "+73" and "->..\"" at the start of the name's line and of the line
    /// under it (boxes and marks of a real reading): the specks are left out, the name stays.
    /// A word of small letters ("www.", half its box high) is no specks.
    @Test func signsReadOnTheSpecksOfALogoAreLeftOut() {
        let marks = [[368, 197, 10, 8], [398, 198, 4, 8], [311, 205, 10, 18], [362, 205, 6, 4], [391, 214, 10, 12],
                     [409, 232, 4, 2], [405, 238, 6, 16], [405, 254, 10, 20], [303, 266, 2, 8], [293, 270, 2, 2],
                     [396, 294, 4, 6], [346, 309, 10, 4], [324, 313, 10, 8], [378, 317, 2, 4], [366, 319, 2, 2]]
            + Self.letters([460, 182, 274, 69], count: 7) + Self.letters([458, 286, 295, 33], count: 15)
        let height = 35
        var page = PageLayout()
        page.startBlock(box: [290, 182, 800, 92])
        page.add(PageLayout.Word(text: "+73", confidence: 0.21, box: [293, 197, 122, 77]))
        page.add(PageLayout.Word(text: "Ålesund", confidence: 0.86, box: [460, 182, 274, 69]))
        page.startLine()
        page.add(PageLayout.Word(text: "->..\"", confidence: 0.60, box: [324, 294, 76, 27]))
        page.add(PageLayout.Word(text: "Tenestekontoret", confidence: 0.50, box: [458, 286, 295, 33]))
        #expect(page.dropSpeckWords(marks: marks, height: height) == 2)
        #expect(page.words.map(\.text) == ["Ålesund", "Tenestekontoret"])
        #expect(page.page().droppedMarks.map(\.text).prefix(2) == ["+73", "->..\""])
        // Read surely, or a word of small letters: stays.
        #expect(!PageLayout.isSpecks(PageLayout.Word(text: "+73", confidence: 0.9, box: [293, 197, 122, 77]), marks: marks, height: height))
        let www = PageLayout.Word(text: "www.", confidence: 0.6, box: [192, 2738, 64, 38])
        let small = [[192, 2756, 18, 16], [212, 2756, 18, 16], [232, 2756, 18, 16], [252, 2768, 4, 4]]
        #expect(!PageLayout.isSpecks(www, marks: small, height: height))
        // Alone on its line, the specks stay to the rules for scribbles.
        var alone = PageLayout()
        alone.startBlock(box: [290, 182, 200, 92])
        alone.add(PageLayout.Word(text: "+73", confidence: 0.21, box: [293, 197, 122, 77]))
        #expect(alone.dropSpeckWords(marks: marks, height: height) == 0)
    }
}

