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

    /// A block of lines Tesseract left out whole (a recipient's address in bold print, each
    /// word's letters run together into one mark) is a region, read again as a block; lines it
    /// lost between lines it read are not, nor are a signature's few strokes.
    @Test func linesLostTogetherAreARegion() {
        let layout = letterhead()
        let read = layout.words.flatMap(marks)
        // Three lines, a word one mark: "Til fastlegen: Else Bakke", "Strømmen legesenter", "2010 Strømmen".
        let block = [[200, 600, 50, 24], [262, 600, 190, 24], [464, 600, 70, 24], [546, 600, 90, 24],
                     [200, 640, 150, 24], [362, 640, 190, 24],
                     [200, 680, 70, 24], [282, 680, 150, 24]]
        #expect(layout.lostRegions(marks: read + block) == [[200, 600, 436, 104]])
        // Its lines alone are too few marks for lost lines of letters.
        #expect(layout.lostLines(marks: read + block).isEmpty)
        // A single line, and a signature's strokes, make no region.
        #expect(layout.lostRegions(marks: read + block.prefix(4)).isEmpty)
        #expect(layout.lostRegions(marks: read + [[300, 900, 120, 40], [380, 910, 200, 30], [600, 905, 90, 35]]).isEmpty)
        // Between lines the reading holds, lost lines are no region.
        var between = letterhead()
        between.startBlock(box: [200, 610, 600, 80])
        for w in [word("Avdeling", 200, 620), word("for", 360, 620), word("barn", 440, 620), word("Oslo", 200, 660)] { between.add(w) }
        #expect(between.lostRegions(marks: between.words.flatMap(marks) + block).isEmpty)
    }

    /// Two lines of an address block read together at a larger name's height come out as a word
    /// of noise ("ee" at 0.35 and less, two lines tall): it covers nothing, the block is a region,
    /// and the word gives way to the region's reading. A word read as surely as 0.5 covers its
    /// marks, and so does noise of a line's height (a pencil note).
    @Test func noiseOverLinesCoversNothing() {
        let block = [[1600, 300, 140, 24], [1752, 300, 60, 24], [1600, 336, 60, 24], [1672, 336, 140, 24],
                     [1830, 300, 40, 24], [1830, 336, 40, 24]]
        func layout(confidence: Double) -> PageLayout {
            var layout = letterhead()
            layout.startBlock(box: [1200, 290, 670, 70])
            layout.add(PageLayout.Word(text: "Sykehus", confidence: 0.95, box: [1200, 290, 300, 70]))
            layout.add(PageLayout.Word(text: "ee", confidence: confidence, box: [1600, 300, 270, 60]))
            return layout
        }
        let noise = layout(confidence: 0.2)
        let region = [1600, 300, 270, 60]
        #expect(noise.lostRegions(marks: noise.words.flatMap(marks) + block) == [region])
        #expect(layout(confidence: 0.5).lostRegions(marks: layout(confidence: 0.5).words.flatMap(marks) + block).isEmpty)
        var flat = letterhead()
        flat.startBlock(box: [1200, 290, 670, 70])
        flat.add(PageLayout.Word(text: "Sykehus", confidence: 0.95, box: [1200, 290, 300, 70]))
        for x in [1600, 1740] { flat.add(PageLayout.Word(text: "ee", confidence: 0.2, box: [x, 300, 130, 24])) }
        flat.startLine()
        for x in [1600, 1740] { flat.add(PageLayout.Word(text: "ee", confidence: 0.2, box: [x, 336, 130, 24])) }
        #expect(flat.lostRegions(marks: flat.words.flatMap(marks) + block).isEmpty)
        var dropped = noise
        dropped.dropNoise(in: region, height: 24)
        #expect(!dropped.words.contains { $0.text == "ee" })
        #expect(dropped.words.count == noise.words.count - 1)
    }

    @Test func threeMarksAloneMayBeAShortNumber() {
        let layout = letterhead()
        let read = layout.words.flatMap(marks)
        // "1/1" at the page's foot, three marks a little more than a word height wide.
        let number = [[1700, 3000, 9, 24], [1715, 3000, 9, 25], [1728, 3000, 9, 24]]
        #expect(layout.lostLines(marks: read + number) == [[1700, 3000, 37, 25]])
        // "1/2" whose stroke runs into the 2: two marks, kept alike.
        #expect(layout.lostLines(marks: read + [[1700, 3000, 6, 24], [1710, 3000, 22, 25]]) == [[1700, 3000, 32, 25]])
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

    /// A region's lines read again stand together: one block of their own where no block holds
    /// their middle (read as lines of one paragraph, not paragraphs apart).
    @Test func aRegionsLinesStandTogether() {
        var layout = letterhead()
        layout.insert(lostLines: [[word("Til", 200, 600), word("fastlegen", 280, 600)], [word("Stasjonsveien", 200, 640), word("3", 450, 640)],
                                  [word("2010", 200, 680), word("Strømmen", 290, 680)]])
        #expect(layout.page().text.hasSuffix("Telefon 55\n\nTil fastlegen\nStasjonsveien 3\n2010 Strømmen"))
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
        // Two marks wider than they are tall below every word read may be a page's number ("1/2",
        // its stroke run into the 2), read again and kept only as one; narrower, taller, or
        // beside the words read, they are no line.
        #expect(layout.lostLines(marks: read + Array(postCode.prefix(2))) == [[1600, 320, 34, 24]])
        #expect(layout.lostLines(marks: read + [[1000, 150, 16, 24], [1018, 150, 16, 24]]).isEmpty)
        #expect(layout.lostLines(marks: read + [[1600, 320, 10, 24], [1612, 320, 10, 24]]).isEmpty)
        #expect(layout.lostLines(marks: read + [[1600, 320, 16, 40], [1618, 320, 16, 40]]).isEmpty)
        #expect(PageLayout.marks(in: [1600, 320, 34, 24], postCode.prefix(2) + [[1610, 340, 12, 4]]) == 2)
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
        // Read unsurely (0.47, with its stroke or without): kept, at the scribble line's confidence.
        for text in ["11", "1/1"] {
            var layout = PageLayout()
            layout.startBlock(box: [2201, 3357, 36, 25])
            layout.add(PageLayout.Word(text: text, confidence: 0.47, box: [2201, 3357, 36, 25]))
            layout.restorePageNumberStrokes(marks: [[2201, 3357, 8, 25], [2230, 3357, 7, 25], [2215, 3360, 9, 20]])
            #expect(layout.words.first?.text == "1/1" && layout.words.first?.confidence == PageLayout.scribbleConfidence, "\(text)")
        }
        // A faint stroke in a phone's photo, broken in two pieces that climb to the right.
        let broken = [[2179, 3359, 9, 24], [2205, 3359, 8, 23], [2198, 3361, 3, 4], [2192, 3367, 6, 11]]
        #expect(restored("11", box: [2179, 3359, 34, 24], marks: broken) == "1/1")
        // Two specks side by side, or falling to the right, are no stroke.
        #expect(restored("11", box: [2179, 3359, 34, 24], marks: [[2179, 3359, 9, 24], [2205, 3359, 8, 23], [2190, 3365, 3, 3], [2197, 3366, 3, 3]]) == "11")
        #expect(restored("11", box: [2179, 3359, 34, 24], marks: [[2179, 3359, 9, 24], [2205, 3359, 8, 23], [2192, 3361, 3, 4], [2197, 3367, 6, 11]]) == "11")
    }

    /// A page's number read again as "11" unsurely (0.54) over three marks with a stroke between
    /// is one whose stroke was lost; two digits the wrong way round, or read at 0.4, are not.
    @Test func aPageNumberReadAgainWithoutItsStrokeIsKnown() {
        func line(_ text: String, _ confidence: Double) -> [PageLayout.Word] {
            [PageLayout.Word(text: text, confidence: confidence, box: [2316, 3361, 33, 24])]
        }
        #expect(PageLayout.readsAsPageNumberWithoutStroke(line("11", 0.54)))
        #expect(PageLayout.readsAsPageNumberWithoutStroke(line("12", 0.6)))
        #expect(!PageLayout.readsAsPageNumberWithoutStroke(line("21", 0.9)))
        #expect(!PageLayout.readsAsPageNumberWithoutStroke(line("11", 0.4)))
        #expect(!PageLayout.readsAsPageNumberWithoutStroke(line("1/1", 0.9)))
    }

    /// A page's number read again with a serif one as a capital L ("L/1", at any confidence) is
    /// the page's number, doubtful; a word, a date or a number the wrong way round is not.
    @Test func aPageNumberWhoseOnesReadAsLettersIsKnown() {
        func read(_ text: String, _ confidence: Double = 0) -> String? {
            PageLayout.pageNumberWithLetterOnes([PageLayout.Word(text: text, confidence: confidence, box: [1816, 2817, 31, 23])])?
                .first.map { "\($0.text) \($0.confidence)" }
        }
        #expect(read("L/1") == "1/1 0.5")
        #expect(read("1/l", 0.9) == "1/1 0.5")
        #expect(read("I/2") == "1/2 0.5")
        for text in ["1/1", "2/L", "L/L/1", "A/1", "L/", "og/I", "L1"] {
            #expect(read(text) == nil, "\(text)")
        }
    }

    /// Noise ending a letterhead's name line ("MS" at 0.31, two lines of the address beside it
    /// tall) covers nothing: the address lines are lost lines, and the noise gives way to them.
    /// Noise inside a line of text (a word framed with a pencil mark above it) still covers.
    @Test func noiseEndingANamesLineHidesTheAddressBesideIt() {
        var page = PageLayout()
        page.startBlock(box: [200, 150, 1500, 70])
        page.add(PageLayout.Word(text: "Bragernes", confidence: 0.96, box: [211, 150, 279, 52]))
        page.add(PageLayout.Word(text: "legesenter", confidence: 0.96, box: [510, 148, 283, 54]))
        page.add(PageLayout.Word(text: "MS", confidence: 0.31, box: [1588, 150, 54, 57]))
        page.startBlock(box: [200, 400, 1500, 30])
        for (i, text) in ["Vi", "har", "fått", "svar", "på", "blodprøvene"].enumerated() {
            page.add(word(text, 200 + 160 * i, 400))
        }
        let address = [[1588, 152, 16, 24], [1606, 152, 16, 24], [1624, 152, 16, 24], [1642, 152, 16, 24], [1660, 152, 16, 24],
                       [1588, 184, 16, 24], [1606, 184, 16, 24], [1624, 184, 16, 24], [1642, 184, 16, 24]]
        #expect(page.lostLines(marks: page.words.flatMap(marks) + address).count == 2)
        var kept = page
        kept.insert(lostLine: [word("3015", 1588, 184), word("Drammen", 1680, 184)], box: [1588, 184, 72, 24], hiddenBy: 24)
        #expect(!kept.words.contains { $0.text == "MS" })
        #expect(kept.words.contains { $0.text == "3015" })
        var body = PageLayout()
        body.startBlock(box: [200, 400, 1500, 70])
        for (i, text) in ["med", "Ikke-Jøder,", "og", "Enker"].enumerated() { body.add(word(text, 200 + 250 * i, 400)) }
        body.add(PageLayout.Word(text: "Undtzelserne", confidence: 0.05, box: [1300, 380, 216, 46]))
        body.add(word("omfatter", 1550, 400))
        let under = (0..<12).map { [1300 + 18 * $0, 400, 16, 24] }
        #expect(body.lostLines(marks: body.words.flatMap(marks) + under).isEmpty)
    }

    /// A date under the references in the right-hand column of a phone photo, joined by the
    /// reading to the recipient's name at its height and read as noise ("oG 5"): the noise
    /// covers nothing, and the date's marks, its digits run together by the blur (".06.202"
    /// one mark), are a lost line. The boxes and marks of that reading.
    @Test func noiseAColumnAfterALineHidesTheDateUnderIt() {
        var page = PageLayout()
        page.startBlock(box: [1759, 596, 459, 35])
        for (text, box) in [("Vår", [1759, 596, 62, 34]), ("referanse:", [1831, 597, 163, 33]), ("25/16753-12", [2006, 598, 212, 33])] {
            page.add(PageLayout.Word(text: text, confidence: 0.93, box: box))
        }
        page.startBlock(box: [266, 651, 1680, 74])
        for (text, confidence, box) in [("Sissel", 0.96, [266, 681, 97, 34]), ("Sofie", 0.96, [377, 682, 89, 33]),
                                        ("Fredriksen", 0.96, [479, 682, 179, 33]), ("oG", 0.0, [1754, 651, 54, 74]),
                                        ("5", 0.34, [1926, 654, 20, 33])] {
            page.add(PageLayout.Word(text: text, confidence: confidence, box: box))
        }
        page.startBlock(box: [267, 737, 300, 42])
        for (i, text) in ["Møllenberggata", "6", "3717", "SKIEN", "Vedtak", "om"].enumerated() {
            page.add(PageLayout.Word(text: text, confidence: 0.95, box: [267 + 200 * i, 737, 150, 33]))
        }
        #expect(PageLayout.hidingNoise(in: page.blocks[1].paragraphs[0][0], height: 41) == 2)
        let date = [[1758, 655, 42, 31], [1811, 655, 113, 32], [1926, 654, 20, 33], [1801, 679, 7, 7]]
        let found = page.lostLines(marks: date)
        #expect(found == [[1758, 654, 188, 33]])
        page.insert(lostLine: [PageLayout.Word(text: "05.06.2025", confidence: 0.95, box: [1758, 654, 188, 33])],
                    box: [1758, 654, 188, 33], hiddenBy: 41)
        #expect(!page.words.contains { $0.text == "oG" || $0.text == "5" })
        #expect(page.words.contains { $0.text == "05.06.2025" })
        // Noise in the line's own column hides nothing, nor does a run of letters alone.
        var near = PageLayout()
        near.startBlock(box: [266, 651, 700, 74])
        for (text, confidence, box) in [("Sissel", 0.96, [266, 681, 97, 34]), ("Sofie", 0.96, [377, 682, 89, 33]),
                                        ("oG", 0.0, [480, 651, 54, 74])] {
            near.add(PageLayout.Word(text: text, confidence: confidence, box: box))
        }
        #expect(PageLayout.hidingNoise(in: near.blocks[0].paragraphs[0][0], height: 41) == 0)
        #expect(page.lostLines(marks: [[1811, 900, 113, 32]]).isEmpty)
    }
}
