import ArkivatorImaging
@testable import ArkivatorOCR
@testable import ArkivatorPipeline
import Testing

/// The guard's measure of a reading: words that look like words count, noise read from marks
/// counts against a reading, and lines broken into pieces cost.
@Suite struct PageReaderGuardTests {
    /// A reading of the given lines, every word read with `confidence`.
    private func reading(_ lines: [[String]], confidence: Double = 0.9) -> OCRPage {
        var words: [RecognizedWord] = [], text = ""
        for line in lines {
            if !text.isEmpty { text += "\n" }
            for (index, word) in line.enumerated() {
                if index > 0 { text += " " }
                words.append(RecognizedWord(text: word, confidence: confidence, start: text.unicodeScalars.count,
                                            length: word.unicodeScalars.count, box: [0, 0, 10, 10]))
                text += word
            }
        }
        return OCRPage(text: text, words: words, meanConfidence: confidence, noText: words.isEmpty)
    }

    @Test func wordsAndNumbersCountTheirLettersAndNoiseCountsNone() {
        #expect(PageReader.wordLetters("Beslaglæggel-") == 12)
        #expect(PageReader.wordLetters("Jøder,") == 5)
        #expect(PageReader.wordLetters("«Gemstand»") == 8)
        #expect(PageReader.wordLetters("Ikke-Jøder.") == 9)
        #expect(PageReader.wordLetters("UDENRIGSMINISTERIET") == 19)
        #expect(PageReader.wordLetters("10.9.1942") == 7)
        #expect(PageReader.wordLetters("i") == 1)
        #expect(PageReader.wordLetters("–") == nil)
        #expect(PageReader.wordLetters("...") == 0)
        #expect(PageReader.wordLetters("LIS-lege") == 7)
        #expect(PageReader.wordLetters("CT-undersøkelse") == 14)
        // Noise: letters mixed with digits or signs, short capitals, odd case.
        for noise in ["GUM", "OED", "5til-", "l1", "Om»GE", "jøDE", "Zgt3skab", "<nrtotek:", "GE-UN", "Ab-GE"] {
            #expect(PageReader.wordLetters(noise) == nil, "\(noise)")
        }
    }

    @Test func noiseFromMarksCountsAgainstAReading() {
        let letter = [["Tak", "for", "Deres", "venlige", "Brev", "af", "1.", "ds."],
                      ["Det", "jødiske", "Spørgsmaal", "i", "Ungarn."]]
        // The same lines with a dashed line and pen marks read as words, with good confidence.
        let noisy = [letter[0] + ["GUM", "OED", "GE", "UNN"], letter[1] + ["5>", "Om»", "l1l"]]
        let clean = PageReader.guardScore(reading(letter)), marked = PageReader.guardScore(reading(noisy))
        #expect(clean > 0)
        #expect(marked < clean)
    }

    @Test func theSameWordsInMoreLinesReadWorse() {
        let whole = [["efterhaanden", "som", "Krigen", "skrider", "frem", "stedse", "skrappere."],
                     ["Jøderne", "betragtes", "som", "Folkefjender", "og", "ønskes", "skaffet."]]
        // Columns read apart: the same words, in four lines.
        let broken = [["efterhaanden", "som", "Krigen"], ["skrider", "frem", "stedse", "skrappere."],
                      ["Jøderne", "betragtes", "som"], ["Folkefjender", "og", "ønskes", "skaffet."]]
        let read = PageReader.guardScore(reading(whole)), apart = PageReader.guardScore(reading(broken))
        #expect(apart * PageReader.guardMargin < read)
        // Words read with low confidence count for nothing; an empty reading scores 0.
        #expect(PageReader.guardScore(reading(whole, confidence: 0.5)) == 0)
        #expect(PageReader.guardScore(reading([])) == 0)
    }

    /// A confident reading that left much of the page's print untouched (a straightened table
    /// whose columns Tesseract took apart) makes the guard read the page as it came too.
    @Test func aReadingThatLeftPrintUntouchedIsChecked() {
        let report = CleanupReport(sheet: nil, estimatedDPI: 300, scale: 1, skewDegrees: 1.3, quarterTurns: 0)
        var page = reading([["Analyse", "Resultat", "Enhet"], ["Kalium", "3,6", "mmol/L"]], confidence: 0.96)
        #expect(PageReader.guardReason(report, page, pixels: 8_700_000) == nil)
        page.uncoveredInk = 0.08
        #expect(PageReader.guardReason(report, page, pixels: 8_700_000) == "uncovered")
        // A signature or a logo leaves a little: no second reading.
        page.uncoveredInk = 0.01
        #expect(PageReader.guardReason(report, page, pixels: 8_700_000) == nil)
    }

    /// A tilted photo of a lab table read as it came: its first column alone, a third of the
    /// page's print touched by no word. The cleaned reading read every column, and its values
    /// ("11,3L", "mmol/L") score as noise: it is kept all the same. Figures of that page.
    @Test func aReadingAsItCameThatLostPrintIsNotKept() {
        var cleaned = reading([["Undersøking", "Svar", "Eining", "Normalområde"], ["TSH", "2,59", "mIE/L", "0,50–4,10"],
                               ["Hemoglobin", "11,3L", "g/dL", "11,7–15,3"], ["Ferritin", "0L", "µg/L", "15–200"]], confidence: 0.83)
        var asIs = reading([["Undersøking", "Svar"], ["TSH"], ["Hemoglobin"], ["Ferritin"]], confidence: 0.85)
        cleaned.uncoveredInk = 0.0
        asIs.uncoveredInk = 0.349
        #expect(PageReader.lostPrint(asIs: asIs, cleaned: cleaned))
        #expect(!PageReader.keepsAsIs(cleaned: cleaned, asIs: asIs, cleanedScore: 434, asIsScore: 468))
        // A reading as it came that left little untouched is weighed as before.
        asIs.uncoveredInk = 0.03
        #expect(!PageReader.lostPrint(asIs: asIs, cleaned: cleaned))
        #expect(PageReader.keepsAsIs(cleaned: cleaned, asIs: asIs, cleanedScore: 434, asIsScore: 468))
        // So is one where the cleaned reading left print untouched too.
        asIs.uncoveredInk = 0.349
        cleaned.uncoveredInk = 0.05
        #expect(PageReader.keepsAsIs(cleaned: cleaned, asIs: asIs, cleanedScore: 434, asIsScore: 468))
    }
}
