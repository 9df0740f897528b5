@testable import ArkivatorOCR
import Testing

/// Lines Tesseract's layout analysis left out of its reading (a letterhead's address beside a
/// larger name, a footer under a rule) are found from the page's marks that no word covers, and
/// put back where they stand.
@Suite struct LostLineTests {
    /// A word of `letters` letters, each 16 px wide and 24 tall, from `x` on the line at `y`.
    private func word(_ text: String, _ x: Int, _ y: Int, confidence: Double = 0.95) -> PageLayout.Word {
        PageLayout.Word(text: text, confidence: confidence, box: [x, y, 18 * text.count, 24])
    }

    /// The marks of a word: one per letter.
    private func marks(_ word: PageLayout.Word) -> [[Int]] {
        (0..<word.text.count).map { [word.box[0] + 18 * $0, word.box[1], 16, 24] }
    }

    /// A letterhead block of two lines on the left, read.
    private func letterhead() -> PageLayout {
        var layout = PageLayout()
        layout.startBlock(box: [200, 150, 1700, 120])
        for w in [word("Haukeland", 200, 150), word("sjukehus", 400, 150)] { layout.add(w) }
        layout.startLine()
        for w in [word("Barne-", 200, 230), word("klinikken", 340, 230), word("Telefon", 1600, 230), word("55", 1740, 230)] {
            layout.add(w)
        }
        return layout
    }

    @Test func printNoWordCoversIsALostLine() {
        let layout = letterhead()
        let read = layout.words.flatMap(marks)
        // "Postboks 1400" on the right, at the name's height, read by no word.
        let lost = marks(word("Postboks", 1600, 152)) + marks(word("1400", 1760, 152))
        let found = layout.lostLines(marks: read + lost)
        #expect(found == [[1600, 152, 1760 + 4 * 18 - 2 - 1600, 24]])
        // Grain, a rule and a lone logo make no line.
        let noise = [[900, 600, 2, 2], [903, 640, 3, 2], [200, 700, 1500, 3], [100, 150, 40, 40], [150, 150, 40, 40]]
        #expect(layout.lostLines(marks: read + noise).isEmpty)
    }

    @Test func threeMarksAloneMayBeAShortNumber() {
        let layout = letterhead()
        let read = layout.words.flatMap(marks)
        // "1/1" at the page's foot, three marks a little more than a word height wide.
        let number = [[1700, 3000, 9, 24], [1715, 3000, 9, 25], [1728, 3000, 9, 24]]
        #expect(layout.lostLines(marks: read + number) == [[1700, 3000, 37, 25]])
        // Three marks narrower than a word height are a mark, not a line.
        #expect(layout.lostLines(marks: read + [[1700, 3000, 6, 24], [1708, 3000, 6, 24], [1716, 3000, 6, 24]]).isEmpty)
        // Read again, it is kept only as a number read with confidence.
        #expect(PageLayout.readsAsNumber([word("1/1", 1700, 3000, confidence: 0.9)]))
        #expect(!PageLayout.readsAsNumber([word("1/1", 1700, 3000, confidence: 0.6)]))
        #expect(!PageLayout.readsAsNumber([word("IVI", 1700, 3000, confidence: 0.9)]))
        #expect(!PageLayout.readsAsNumber([word("1", 1700, 3000, confidence: 0.9)]))
        #expect(!PageLayout.readsAsText([word("1/1", 1700, 3000, confidence: 0.9)]))
    }

    /// The share of letter-sized marks no word touches tells a reading that lost print (a
    /// table's columns left out) from one that read all of it.
    @Test func theShareOfPrintNoWordTouchesIsMeasured() {
        var layout = letterhead()
        layout.startBlock(box: [200, 400, 1000, 800])
        for row in 0..<10 { layout.add(word("Kreatinin", 200, 400 + 40 * row)); layout.startLine() }
        let read = layout.words.flatMap(marks)
        #expect(layout.uncoveredShare(marks: read) == 0)
        // A column of results beside the names, read by no word: 40 marks of 145.
        let lost = (0..<10).flatMap { row in marks(word("5,21", 700, 400 + 40 * row)) }
        let share = layout.uncoveredShare(marks: read + lost) ?? 0
        #expect(abs(share - 40.0 / Double(read.count + 40)) < 0.001)
        // Too few marks to tell.
        #expect(letterhead().uncoveredShare(marks: letterhead().words.flatMap(marks)) == nil)
    }

    @Test func aLineReadAgainStandsInItsPlace() {
        var layout = letterhead()
        layout.insert(lostLine: [word("Postboks", 1600, 148), word("1400", 1760, 148)])
        layout.insert(lostLine: [word("5021", 1600, 190), word("Bergen", 1700, 190)])
        // Beside the name and under it, in the right-hand column.
        #expect(layout.page().text == "Haukeland sjukehus\nBarne- klinikken\n\nPostboks 1400\n5021 Bergen\nTelefon 55")
        // A footer outside every block is a block of its own, read after the text above it.
        layout.insert(lostLine: [word("Postboks", 200, 3000), word("3250", 360, 3000), word("Trondheim", 460, 3000)])
        #expect(layout.page().text.hasSuffix("Telefon 55\n\nPostboks 3250 Trondheim"))
    }

    @Test func aLineReadAgainThatThePageHoldsNearbyIsNotWrittenTwice() {
        let layout = letterhead()
        #expect(layout.holdsNearby([word("Barne-", 200, 250), word("klinikken", 340, 250)], height: 24))
        #expect(!layout.holdsNearby([word("Postboks", 1600, 152), word("1400", 1760, 152)], height: 24))
        // Every word, where a line read in part ("Telefon 55" for "Telefon 55 97 50 00") is not the line.
        let phone = [word("Telefon", 1600, 232), word("55", 1740, 232), word("97", 1800, 232), word("50", 1860, 232)]
        #expect(layout.holdsNearby(phone, height: 24))
        #expect(!layout.holdsNearby(phone, height: 24, every: true))
        #expect(layout.holdsNearby(Array(phone.prefix(2)), height: 24, every: true))
        // The same words far below are another line.
        #expect(!layout.holdsNearby([word("Barne-", 200, 900), word("klinikken", 340, 900)], height: 24))
    }

    @Test func aSecondReadingOfNoiseIsNoText() {
        #expect(PageLayout.readsAsText([word("Postboks", 0, 0, confidence: 0.9), word("1400", 200, 0, confidence: 0.9)]))
        #expect(!PageLayout.readsAsText([word("Postboks", 0, 0, confidence: 0.5), word("1400", 200, 0, confidence: 0.6)]))
        #expect(!PageLayout.readsAsText([word("~,;", 0, 0, confidence: 0.9)]))
    }

    /// Four marks shorter than three word heights (a post code whose town Tesseract read beside a
    /// letterhead's name) are a line too, read again and kept only as a number.
    @Test func aShortGroupOfMarksIsALostLine() {
        let layout = letterhead()
        let read = layout.words.flatMap(marks)
        let postCode = marks(word("5701", 1600, 320))
        #expect(layout.lostLines(marks: read + postCode) == [[1600, 320, 4 * 18 - 2, 24]])
        // Two marks are no line.
        #expect(layout.lostLines(marks: read + Array(postCode.prefix(2))).isEmpty)
    }

    /// A page's number read "11" or "12" over three marks, the stroke between its digits among
    /// them, is "1/1" or "1/2" (boxes of real pages' feet); over two marks (the stroke touching a
    /// digit, or the page's eleventh) it stays as read, as does "21", which is no page's number.
    @Test func aPageNumbersLostStrokeIsFoundAmongItsMarks() {
        func restored(_ text: String, box: [Int], marks: [[Int]]) -> String? {
            var layout = PageLayout()
            layout.startBlock(box: box)
            layout.add(PageLayout.Word(text: text, confidence: 0.6, box: box))
            layout.restorePageNumberStrokes(marks: marks)
            return layout.words.first?.text
        }
        let thin = [[1869, 2818, 10, 24], [1858, 2819, 5, 22], [1884, 2819, 5, 23]]
        #expect(restored("11", box: [1858, 2818, 31, 24], marks: thin) == "1/1")
        #expect(restored("12", box: [1858, 2818, 31, 24], marks: thin) == "1/2")
        #expect(restored("21", box: [1858, 2818, 31, 24], marks: thin) == "21")
        let wide = [[1834, 2812, 13, 24], [1863, 2812, 11, 24], [1849, 2814, 9, 23]]
        #expect(restored("11", box: [1833, 2812, 42, 25], marks: wide) == "1/1")
        let touching = [[2170, 3436, 17, 30], [2190, 3436, 31, 32]]
        #expect(restored("11", box: [2170, 3436, 51, 32], marks: touching) == "11")
        // A speck of grain between two digits is no stroke.
        #expect(restored("11", box: [1858, 2818, 31, 24], marks: [[1858, 2819, 5, 22], [1871, 2826, 3, 3], [1884, 2819, 5, 23]]) == "11")
    }
}
