import ArkivatorImaging
import ArkivatorOCR
import Foundation

/// The guard: when the cleaned page reads doubtfully, the page is read as it came too, and the
/// reading that holds more good text is kept.
extension PageReader {
    /// A cleaned reading below this mean confidence is doubtful, and the guard reads the page as
    /// it came too. Clean letters read at 0.9 and more; a page that cleanup has harmed reads lower.
    static let doubtfulConfidence = 0.9

    /// The reading as it came is kept only when it is this much better: on a tie the cleaned
    /// page, which is the better image to archive, wins.
    static let guardMargin = 1.02

    /// Two readings whose scores are this close (the lower at least this share of the higher)
    /// read the page about as well, each with its own misread words: the kept one takes the
    /// words the other is surer of (``OCRPage/combined(with:)``). Where one reading is clearly
    /// better, the other's words are more often wrong than right, and are not asked.
    static let closeShare = 0.9

    static func closeReadings(_ a: Double, _ b: Double) -> Bool {
        let high = max(a, b)
        return high > 0 && min(a, b) / high >= closeShare
    }

    /// A cleanup that left this share of a page's ink out of the copy OCR reads (as coloured
    /// marks or pen strokes) may have taken letters for marks: the page is read as it came too.
    /// Stamps, signatures and notes on a typed letter take a tenth or less.
    static let inkLeftOutLimit = 0.3

    /// A cleaned reading whose words leave this share of the page's letter-sized marks untouched
    /// lost print: Tesseract took a table's straightened columns apart and left some of them
    /// out, or a step lost lines. On letters read well the share is under 3 % (a signature, a
    /// logo); the page is read as it came too.
    static let uncoveredInkLimit = 0.025

    /// A cleaned page of fewer pixels than this (a label, a receipt's strip, a line cut from a
    /// screen; an A4 page at 300 DPI has 8.7 million) is always read as it came too: a second
    /// reading costs little there, and a picture that small has no margin for a cleanup step's
    /// mistake.
    static let smallPagePixels = 2_500_000

    /// Why the guard should read the page as it came too, or nil when the cleaned reading is sound:
    /// "noText" when the cleaned page read as no text (a reading as it came costs little on a
    /// blank page, and finds the line a cleanup step lost), "inkLeftOut" when cleanup left much
    /// of the page's ink out, "uncovered" when the reading left much print untouched
    /// (``uncoveredInkLimit``), "small" for a small picture (`pixels`, the cleaned page's size),
    /// "doubtful" when the reading's confidence is low.
    static func guardReason(_ report: CleanupReport, _ page: OCRPage, pixels: Int) -> String? {
        // A page without ink contrast was read as it came already.
        if report.blank != nil { return nil }
        if page.noText { return "noText" }
        if let share = report.inkLeftOut, share >= inkLeftOutLimit { return "inkLeftOut" }
        if let share = page.uncoveredInk, share >= uncoveredInkLimit { return "uncovered" }
        if pixels < smallPagePixels { return "small" }
        return page.meanConfidence < doubtfulConfidence ? "doubtful" : nil
    }

    /// Whether the reading as it came is kept: when it scores clearly better (``guardMargin``),
    /// or about as well and holds words the cleaned reading lost (a title bar's light letters, a
    /// line a cleanup step left out): words of the word lists that the other reading lacks, more
    /// than the other way round. The page never comes out with fewer words than it shows as it came.
    /// Never when it lost print the cleaned reading read (``lostPrint(asIs:cleaned:)``).
    static func keepsAsIs(cleaned: OCRPage, asIs: OCRPage, cleanedScore: Double, asIsScore: Double) -> Bool {
        if lostPrint(asIs: asIs, cleaned: cleaned) { return false }
        if asIsScore > guardMargin * cleanedScore { return true }
        guard asIsScore * guardMargin >= cleanedScore else { return false }
        let ours = words(cleaned), theirs = words(asIs)
        return theirs.subtracting(ours).count > ours.subtracting(theirs).count
    }

    /// Whether the reading as it came left print untouched that the cleaned reading read: a
    /// tenth of the page's letter-sized marks or more touched by no word (``uncoveredInk``; a
    /// tilted photo's table read as its first column alone), where the cleaned reading left
    /// under ``uncoveredInkLimit`` and read more words. Such a reading can score the better (a
    /// lab table's values, "11,3L" and "mmol/L", count as noise), and loses the page's numbers.
    static func lostPrint(asIs: OCRPage, cleaned: OCRPage) -> Bool {
        guard let lost = asIs.uncoveredInk, let left = cleaned.uncoveredInk else { return false }
        return lost >= 4 * uncoveredInkLimit && left < uncoveredInkLimit && cleaned.words.count > asIs.words.count
    }

    /// The distinct words of a reading (small letters, the signs around them left aside) that
    /// look like words, read with confidence 0.6 or more, and stand in the word lists (``Lexicon``;
    /// without them, words of four letters or more).
    static func words(_ page: OCRPage) -> Set<String> {
        guard !page.noText else { return [] }
        var result: Set<String> = []
        for word in page.words where word.confidence >= 0.6 {
            let core = word.text.lowercased().trimmingCharacters(in: .punctuationCharacters.union(.symbols))
            guard core.count >= 2, core.allSatisfy(\.isLetter) else { continue }
            if Lexicon.shared.map({ $0.contains(core) }) ?? (core.count >= 4) { result.insert(core) }
        }
        return result
    }

    /// How much good text a reading holds: its good letters (``goodLetters(_:)``) times the
    /// square root of the good letters per line. The same page read with its lines broken
    /// into pieces (columns read apart on a skewed photo, a margin note or a stamp read as lines
    /// of their own) has as many letters but more lines, and reads worse.
    static func guardScore(_ page: OCRPage) -> Double {
        guard !page.noText else { return 0 }
        // Marks left out of the text count as they would have, had they stayed (see
        // `OCRPage.droppedMarks`): the choice between two readings is made on what each read.
        let letters = goodLetters(page.words + page.droppedMarks)
        guard letters > 0 else { return 0 }
        let lines = page.text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }.count + page.droppedMarkLines
        return letters * (letters / Double(max(1, lines))).squareRoot()
    }

    /// The letters and digits of the words that look like words (``wordLetters(_:)``) read with
    /// confidence 0.6 or more, weighted by their confidence, less those of the tokens that do
    /// not (letters mixed with digits or signs, two or three capitals, odd case), weighted alike.
    /// Noise read from a pen stroke, a dashed line or a stamp thus counts against a reading
    /// instead of for it; words lost to a bad crop or a wrong scale count against it too.
    static func goodLetters(_ words: [RecognizedWord]) -> Double {
        words.reduce(0) { sum, word in
            guard let letters = wordLetters(word.text) else {
                let signs = word.text.filter { $0.isLetter || $0.isNumber }.count
                return sum - word.confidence * Double(signs)
            }
            return word.confidence >= 0.6 ? sum + word.confidence * Double(letters) : sum
        }
    }

    /// The letters (or digits) a token counts when it looks like a word or a number, 0 when it
    /// is only signs, nil when it looks like noise (``TokenShape/wordLetters(_:)``).
    static func wordLetters(_ token: String) -> Int? { TokenShape.wordLetters(token) }
}
