import ArkivatorCore
import ArkivatorImaging
internal import CArkivatorPNG
internal import CLeptonica
internal import CTesseract
import Foundation

/// A failed Tesseract call, with a message for the user.
public struct OCRError: UserFacingError, Sendable {
    public let errorCode: String
    public let userMessage: UserMessage

    static func missingLanguage(_ language: String) -> OCRError {
        OCRError(errorCode: "ocrLanguage", userMessage: UserMessage(
            nb: "Tesseract mangler språkdata for «\(language)». Installer pakken tesseract-ocr-\(language) (make demo gjør det).",
            en: "Tesseract has no language data for '\(language)'. Install the package tesseract-ocr-\(language) (make demo does)."))
    }

    static let recognitionFailed = OCRError(errorCode: "ocr", userMessage: UserMessage(
        nb: "Tekstgjenkjenningen feilet på denne siden. Prøv et tydeligere bilde.",
        en: "Text recognition failed on this page. Try a clearer image."))
}

/// One Tesseract engine: owns a `TessBaseAPI`, initialised once and reused for many pages.
///
/// Not thread-safe, and so not `Sendable`: each worker thread has its own engine (the pipeline's
/// `PageReader` holds one per worker).
public final class TesseractEngine {
    private let handle: OpaquePointer
    public let language: String
    private let dataPath: String?

    /// Loads the language model (about 60 ms for `nor`).
    public init(language: String = "nor", dataPath: String? = nil) throws(OCRError) {
        guard let handle = TessBaseAPICreate() else { throw OCRError.recognitionFailed }
        self.handle = handle
        self.language = language
        self.dataPath = dataPath
        // Tesseract's own chatter ("Estimating resolution…") goes nowhere; Arkivator reports itself.
        TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        let status: Int32 = if let dataPath { TessBaseAPIInit3(handle, dataPath, language) } else { TessBaseAPIInit3(handle, nil, language) }
        guard status == 0 else {
            TessBaseAPIDelete(handle)
            throw OCRError.missingLanguage(language)
        }
        TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        TessBaseAPISetPageSegMode(handle, PSM_AUTO)
        // Letters print dark text on light paper: skip Tesseract's second try of every doubtful
        // line as white-on-black text (slower, and it turns smudges into letters).
        TessBaseAPISetVariable(handle, "tessedit_do_invert", "0")
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Reads the text of a cleaned page (1-bit or 8-bit, upright, about `dpi`).
    ///
    ///
    /// With `invertedLines`, a line read doubtfully is read again as light letters on dark (a
    /// screen's title bar, a shaded table header), as plain Tesseract does: slower, so only the
    /// guard's reading of a page as it came asks for it.
    public func recognize(_ image: Image, dpi: Int = 300, invertedLines: Bool = false) throws(OCRError) -> OCRPage {
        TessBaseAPIClear(handle)
        if invertedLines { TessBaseAPISetVariable(handle, "tessedit_do_invert", "1") }
        defer { if invertedLines { TessBaseAPISetVariable(handle, "tessedit_do_invert", "0") } }
        // Tesseract keeps its copy of the page and everything it found on it until the next page:
        // let it go now, so a worker waiting for its next page holds none of this one.
        defer { TessBaseAPIClear(handle) }
        TessBaseAPISetImage2(handle, image.pix)
        TessBaseAPISetSourceResolution(handle, Int32(dpi))
        guard recognizeImage() else { throw OCRError.recognitionFailed }
        guard var layout = readLayout() else { return .empty }
        layout.joinCutNumbers()
        layout.joinTornLineEnds()
        layout.pageWidth = image.width
        layout.pageHeight = image.height
        // The black and white page Tesseract read, for the lines it lost (taken now: a second
        // reading of a part of the page lets it go).
        var binary = TessBaseAPIGetThresholdedImage(handle)
        defer { pixDestroy(&binary) }
        let marks = binary.map(Self.marks) ?? []
        // Later fragments first, so that replacing one never moves the words of another. Words
        // both garbled and stacked are read as garbled first, and as stacked when that fails.
        let textHeight = layout.wordHeight()
        // A signature drawn in one stroke and read as a word is no text.
        if let textHeight { layout.dropPenStrokes(marks: marks, height: textHeight) }
        // Nor are a few signs read on the specks left of a logo beside the letterhead's name.
        if let textHeight { layout.dropSpeckWords(marks: marks, height: textHeight) }
        let stacked = layout.stackedFragments(marks: marks)
        func overlapping(_ a: PageLayout.Fragment, _ b: PageLayout.Fragment) -> Bool {
            a.block == b.block && a.paragraph == b.paragraph && a.line == b.line && a.words.overlaps(b.words)
        }
        var jobs: [(fragment: PageLayout.Fragment, fallback: PageLayout.Fragment?)] = []
        var fallbacks = Set<Int>()
        for garbled in layout.garbledFragments() {
            // Each stacked fragment stands behind one garbled piece at most.
            let s = stacked.indices.first { !fallbacks.contains($0) && overlapping(stacked[$0], garbled) }
            if let s { fallbacks.insert(s) }
            jobs.append((garbled, s.map { stacked[$0] }))
        }
        jobs += stacked.filter { s in !jobs.contains { overlapping($0.fragment, s) } }.map { ($0, nil) }
        jobs.sort { ($0.fragment.block, $0.fragment.paragraph, $0.fragment.line, $0.fragment.words.lowerBound)
            < ($1.fragment.block, $1.fragment.paragraph, $1.fragment.line, $1.fragment.words.lowerBound) }
        for job in jobs.reversed() where !reread(job.fragment, in: &layout, textHeight: textHeight) {
            if let fallback = job.fallback { _ = reread(fallback, in: &layout, textHeight: textHeight) }
        }
        rereadColumnTables(in: &layout, marks: marks, textHeight: textHeight)
        rereadTornLines(in: &layout)
        // Regions of several lines lost together, read again as a block: the lines that read as
        // text surely are put where they stand.
        for region in layout.lostRegions(marks: marks) {
            let pad = (textHeight ?? 0) / 2
            let x = max(0, region[0] - pad), y = max(0, region[1] - pad)
            let box = [x, y, min(image.width, region[0] + region[2] + pad) - x, min(image.height, region[1] + region[3] + pad) - y]
            let lines = rereadBlock(box)
            // Print reads surely (0.85 or more) in half its lines at least; a pencil note or a
            // stamp does not.
            let sure = lines.map { PageLayout.readsAsText($0) && PageLayout.meanConfidence($0) >= 0.85 || PageLayout.readsAsNumber($0) }
            guard 2 * sure.filter({ $0 }).count >= lines.count else { continue }
            // In such print, a line that is a table's number cell ("< 5", "> 60", "20-42") is kept
            // too, in doubt (0.5 at most) where it reads less surely.
            let kept: [[PageLayout.Word]] = lines.indices.compactMap { index in
                let line = lines[index]
                if sure[index] { return line }
                guard PageLayout.isNumberCell(line) else { return nil }
                return PageLayout.meanConfidence(line) >= 0.85 ? line
                    : line.map { PageLayout.Word(text: $0.text, confidence: min($0.confidence, 0.5), box: $0.box) }
            }
            let fresh = kept.filter { line in
                let heights = PageLayout.printHeights(line)
                return !layout.holdsNearby(line, height: heights[heights.count / 2])
            }
            guard !fresh.isEmpty else { continue }
            if let textHeight { layout.dropNoise(in: region, height: textHeight) }
            layout.insert(lostLines: fresh)
        }
        // Lost lines of three marks side by side that read as nothing: a page's number, perhaps.
        var unreadNumbers: [[Int]] = [], unreadShort: [[Int]] = []
        for box in layout.lostLines(marks: marks) {
            var line = rereadLostLine(box, width: image.width, height: image.height)
            // A line shorter than three word heights is kept only as a number, and two marks
            // only as a page's number ("1/2"; "45" beside a number read is a piece of it).
            let short = box[2] < 3 * (textHeight ?? 0)
            let pair = PageLayout.marks(in: box, marks) == 2
            // A page's number that lost its stroke ("11" over three marks) gets it back below
            // (``PageLayout/restorePageNumberStrokes(marks:)``).
            let strokeless = PageLayout.readsAsPageNumberWithoutStroke(line) && PageLayout.strokeBetween(box, marks: marks)
            // A page's number whose ones read as letters ("L/1"), over its three marks: its digits.
            let lettered = PageLayout.strokeBetween(box, marks: marks) ? PageLayout.pageNumberWithLetterOnes(line) : nil
            if let lettered { line = lettered }
            if (!short && PageLayout.readsAsText(line)) || (!pair && PageLayout.readsAsNumber(line)) || PageLayout.readsAsPageNumber(line)
                || strokeless || lettered != nil {
                if !layout.holdsNearby(line, height: max(1, box[3])) {
                    if let textHeight { layout.insert(lostLine: line, box: box, hiddenBy: textHeight) } else { layout.insert(lostLine: line) }
                }
            } else {
                if PageLayout.strokeBetween(box, marks: marks) { unreadNumbers.append(box) }
                if short { unreadShort.append(box) }
            }
        }
        // Read again on the black and white page: a short number in gray ("1/1" in a typewriter
        // font) can read as nothing ("T/") where its black and white marks read plainly.
        if !unreadNumbers.isEmpty, let binary {
            TessBaseAPISetImage2(handle, binary)
            TessBaseAPISetSourceResolution(handle, Int32(dpi))
            for box in unreadNumbers {
                let line = rereadLostLine(box, width: image.width, height: image.height)
                if PageLayout.readsAsNumber(line) || PageLayout.readsAsPageNumber(line), !layout.holdsNearby(line, height: max(1, box[3])) {
                    layout.insert(lostLine: line)
                    unreadShort.removeAll { $0 == box }
                }
            }
        }
        // Read by Tesseract's English model: the Norwegian one reads a page's number in some
        // fonts as its last digit alone ("2" for "1/2"), where the English one reads it plainly.
        // A page's number is kept as read (the page it stands on tells whether it is right); any
        // other number stays doubtful (0.5 at most): the two models read it differently.
        if !unreadShort.isEmpty, let english = englishReader() {
            for (box, line) in zip(unreadShort, english.readLostLines(unreadShort, of: image, dpi: dpi)) {
                let number = PageLayout.readsAsNumber(line) && PageLayout.marks(in: box, marks) > 2
                guard number || PageLayout.readsAsPageNumber(line), !layout.holdsNearby(line, height: max(1, box[3])) else { continue }
                layout.insert(lostLine: PageLayout.readsAsPageNumber(line) ? line : line.map {
                    PageLayout.Word(text: $0.text, confidence: min($0.confidence, 0.5), box: $0.box)
                })
            }
        }
        // A lost line read again may be a piece of a line whose other piece was read (the first
        // reading put "3 Majorstuen" after a letterhead's name, the second read "Postboks 531."
        // beside it, short of the 3's marks): the whole line read once more.
        rereadTornLines(in: &layout)
        // Once every line is read: a sign a lost line holds was no number's.
        rereadClippedNumbers(in: &layout, marks: marks)
        rereadLostCommas(in: &layout, marks: marks)
        // Also on a lost line read again as "11".
        layout.restorePageNumberStrokes(marks: marks)
        var page = layout.page()
        page.uncoveredInk = layout.uncoveredShare(marks: marks)
        return page
    }

    /// Reads a fragment of the page again (``PageLayout/garbledFragments(limit:)``,
    /// ``PageLayout/stackedFragments(marks:limit:)``) and puts the better reading in its place;
    /// whether it did.
    private func reread(_ fragment: PageLayout.Fragment, in layout: inout PageLayout, textHeight: Int?) -> Bool {
        guard layout.blocks.indices.contains(fragment.block),
              layout.blocks[fragment.block].paragraphs.indices.contains(fragment.paragraph),
              layout.blocks[fragment.block].paragraphs[fragment.paragraph].indices.contains(fragment.line),
              fragment.words.upperBound <= layout.blocks[fragment.block].paragraphs[fragment.paragraph][fragment.line].count
        else { return false }
        let read = layout.words(of: fragment)
        func better(_ again: [PageLayout.Word]) -> Bool {
            let confidence = PageLayout.meanConfidence(again)
            // A number kept whole: the same digits, no comma or point lost ("4,6 H" is not "46H").
            func skeleton(_ words: some Collection<PageLayout.Word>) -> (digits: String, signs: Int) {
                let text = words.map(\.text).joined()
                return (text.filter(\.isNumber), text.filter { $0 == "," || $0 == "." }.count)
            }
            let (was, now) = (skeleton(read), skeleton(again))
            // A page's number whose stroke the first reading lost ("11" for "1/1"): its digits
            // again, in a page number's form. Tesseract does not make up a stroke between two
            // digits; it loses one.
            if fragment.shortNumber, PageLayout.readsAsPageNumber(again), was.digits == now.digits { return true }
            // A misplaced piece read unsurely as letters that reads apart, surely, as a number of
            // three digits or more (a postal code beside a place name read as "Holen" at the
            // letterhead's height): the number. Too few letters for the rule below.
            if fragment.misplaced, fragment.confidence < 0.5, was.digits.isEmpty, confidence >= 0.9,
               now.digits.count >= 3, again.allSatisfy({ $0.text.allSatisfy(\.isNumber) }) { return true }
            // Small print read at its own height reads better than at the larger letters' as
            // soon as it reads as surely, and so does a piece read apart from the line it was
            // cut to; other pieces must read clearly better.
            let gain = fragment.misplaced ? 0 : 0.3
            guard PageLayout.alphanumerics(again) >= (fragment.shortNumber ? 2 : 5), confidence >= 0.7,
                  confidence >= fragment.confidence + gain else { return false }
            guard fragment.shortNumber else { return true }
            return was.digits == now.digits && now.signs >= was.signs
        }
        // Only the lines within the fragment's own height are its own, and no speck its frame
        // caught (``PageLayout/withoutSpeckLines(_:)``).
        func blockLines() -> [[PageLayout.Word]] {
            PageLayout.withoutSpeckLines(rereadBlock(fragment.box).map { line in
                line.filter { fragment.span.contains($0.box[1] + $0.box[3] / 2) }
            }.filter { !$0.isEmpty })
        }
        if fragment.stacked {
            // Read as one line, two lines would come out as one again: only as a block
            // (``PageLayout/readsAsStackedLines(_:for:confidence:)``). Only words under the
            // fragment's own: the words beside it in its line stay.
            let pad = (textHeight ?? 0) / 2
            let inner = (fragment.box[0] + pad)...max(fragment.box[0] + pad, fragment.box[0] + fragment.box[2] - pad)
            let lines = blockLines().map { $0.filter { inner.contains($0.box[0] + $0.box[2] / 2) } }.filter { !$0.isEmpty }
            guard PageLayout.readsAsStackedLines(lines, for: read, confidence: fragment.confidence) else { return false }
            let fresh = Self.unread(lines, in: layout, apartFrom: fragment)
            guard !fresh.isEmpty else { return false }
            layout.replace(fragment, withLines: fresh)
            return true
        }
        let again = PageLayout.withoutSpecks(rereadLine(fragment.box))
        let lineReads = better(again)
        // The fragment may hold several lines of smaller print (an address block beside a
        // letterhead's name): read as one line, they come out garbled, and at times surely
        // enough to pass ("31 04 Tonsberg 1" for "Postboks 2415 / 3104 Tønsberg"). Read as a
        // block they are two lines or more: that reading wins when it reads well, holds more
        // letters and digits, and reads about as surely.
        let lines = blockLines()
        let block = lines.flatMap { $0 }
        if lines.count >= 2, better(block),
           !lineReads || (PageLayout.alphanumerics(block) > PageLayout.alphanumerics(again)
                          && PageLayout.meanConfidence(block) >= PageLayout.meanConfidence(again) - 0.05) {
            let fresh = Self.unread(lines, in: layout, apartFrom: fragment)
            if !fresh.isEmpty {
                layout.replace(fragment, withLines: fresh)
                return true
            }
        }
        guard lineReads else { return false }
        // Read apart from the line it was cut to, at the line's end (an address line beside a
        // name, a date beside an address), it is a line of its own: the name is not read as
        // "Lovisenberg Sykehus 0440 Oslo".
        let line = layout.blocks[fragment.block].paragraphs[fragment.paragraph][fragment.line]
        if fragment.misplaced, fragment.words.lowerBound > 0, fragment.words.upperBound == line.count {
            layout.replace(fragment, withLineAfter: again)
        } else {
            layout.replace(fragment, with: again)
        }
        return true
    }

    /// The lines of a second reading of `fragment` as a block that the page does not hold already
    /// nearby, every word of them, apart from the fragment's own words: a line of an address
    /// block that Tesseract read on its own beside the lines it joined to a larger name is not
    /// written twice; a line it read only in part ("Tlf. 38 07 3") is.
    private static func unread(_ lines: [[PageLayout.Word]], in layout: PageLayout, apartFrom fragment: PageLayout.Fragment) -> [[PageLayout.Word]] {
        var others = layout
        others.replace(fragment, with: [])
        return lines.filter { line in
            let heights = PageLayout.printHeights(line)
            return heights.isEmpty || !others.holdsNearby(line, height: heights[heights.count / 2], every: true)
        }
    }

    /// Tesseract's English model, loaded the first time a short number a page lost reads as
    /// nothing in Norwegian (nil, and not asked again, when it is not installed: Debian's
    /// tesseract-ocr brings it).
    private var english: TesseractEngine?
    private var englishMissing = false
    private func englishReader() -> TesseractEngine? {
        guard english == nil, !englishMissing, language != "eng" else { return english }
        english = try? TesseractEngine(language: "eng", dataPath: dataPath)
        englishMissing = english == nil
        return english
    }

    /// The words of each of `boxes`, short lost lines of `image` (``PageLayout/lostLines(marks:)``),
    /// each cut out in the frame ``rereadLostLine(_:width:height:)`` reads and enlarged to about
    /// 60 pixels of print (a page's number is often smaller than the text, and read at its own
    /// size loses its stroke), read as one line; the boxes are the page's.
    fileprivate func readLostLines(_ boxes: [[Int]], of image: Image, dpi: Int) -> [[PageLayout.Word]] {
        TessBaseAPISetPageSegMode(handle, PSM_SINGLE_LINE)
        defer {
            TessBaseAPISetPageSegMode(handle, PSM_AUTO)
            TessBaseAPIClear(handle)
        }
        return boxes.map { box in
            let frame = PageLayout.lostLineFrame(box, width: image.width, height: image.height)
            let factor = min(4, max(1, 60 / Double(max(1, box[3]))))
            guard frame[2] > 0, frame[3] > 0,
                  let crop = try? image.cropped(x: frame[0], y: frame[1], width: frame[2], height: frame[3]).scaled(by: factor) else { return [] }
            TessBaseAPISetImage2(handle, crop.pix)
            TessBaseAPISetSourceResolution(handle, Int32(Double(dpi) * factor))
            guard recognizeImage() else { return [] }
            return (readLayout()?.words ?? []).map { word in
                let b = word.box.map { Int((Double($0) / factor).rounded()) }
                return PageLayout.Word(text: word.text, confidence: word.confidence, box: [frame[0] + b[0], frame[1] + b[1], b[2], b[3]])
            }.filter { PageLayout.stands($0, on: box) }
        }
    }

    /// The words of a lost line (``PageLayout/lostLines(marks:)``, box x, y, width, height) read
    /// again as one line, in a frame half its height wider and a third taller on each side (of a
    /// page `width` by `height`). Only words standing on the line found: a reading across its
    /// edges adds pieces of the lines above and below.
    private func rereadLostLine(_ box: [Int], width: Int, height: Int) -> [PageLayout.Word] {
        rereadLine(PageLayout.lostLineFrame(box, width: width, height: height)).filter { PageLayout.stands($0, on: box) }
    }

    /// Printed lines Tesseract tore in two (``PageLayout/tornLines(limit:)``) read again as one
    /// line. That reading takes both pieces' place when it reads well (0.8 or more, and no less
    /// surely than the less sure piece) and holds as many letters and digits as either piece.
    private func rereadTornLines(in layout: inout PageLayout) {
        var changes: [(fragment: PageLayout.Fragment, words: [PageLayout.Word])] = []
        for torn in layout.tornLines() {
            let words = rereadLine(torn.box).filter { torn.span.contains($0.box[1] + $0.box[3] / 2) }
            let (kept, taken) = (layout.words(of: torn.kept), layout.words(of: torn.taken))
            let confidence = PageLayout.meanConfidence(words)
            guard confidence >= 0.8, confidence >= min(torn.kept.confidence, torn.taken.confidence),
                  PageLayout.alphanumerics(words) >= max(PageLayout.alphanumerics(kept), PageLayout.alphanumerics(taken)) else { continue }
            changes += [(torn.kept, words), (torn.taken, [])]
        }
        // Later words first, so that replacing some never moves the others.
        changes.sort { ($0.fragment.block, $0.fragment.paragraph, $0.fragment.line, $0.fragment.words.lowerBound)
            > ($1.fragment.block, $1.fragment.paragraph, $1.fragment.line, $1.fragment.words.lowerBound) }
        for change in changes { layout.replace(change.fragment, with: change.words) }
    }

    /// Numbers that lost a sign at an end (``PageLayout/clippedNumbers(marks:limit:)``) read again
    /// as a line. The second reading takes the word's place when it is one word, read surely
    /// (0.8 or more), that holds the first reading whole with one letter or digit more on the
    /// side of the mark ("24/09091-11" for "24/09091-1").
    private func rereadClippedNumbers(in layout: inout PageLayout, marks: [[Int]]) {
        for clipped in layout.clippedNumbers(marks: marks).reversed() {
            let fragment = clipped.fragment
            let words = PageLayout.withoutSpecks(rereadLine(fragment.box)).filter { fragment.span.contains($0.box[1] + $0.box[3] / 2) }
            guard words.count == 1, let again = words.first, let old = layout.words(of: fragment).first?.text,
                  again.confidence >= 0.8, again.text.count > old.count else { continue }
            let more = clipped.after ? (again.text.hasPrefix(old) ? again.text.dropFirst(old.count) : nil)
                : (again.text.hasSuffix(old) ? again.text.dropLast(old.count) : nil)
            guard let more, more.count == 1, more.allSatisfy({ $0.isLetter || $0.isNumber }) else { continue }
            layout.replace(fragment, with: [again])
        }
    }

    /// Numbers read without the comma that stands among their digits
    /// (``PageLayout/lostCommas(marks:limit:)``) read again as a word on their own: the reading
    /// takes the word's place when it reads surely (0.8 or more), with the same signs and its
    /// commas (``PageLayout/restoresCommas(_:of:)``).
    private func rereadLostCommas(in layout: inout PageLayout, marks: [[Int]]) {
        for fragment in layout.lostCommas(marks: marks).reversed() {
            guard let old = layout.words(of: fragment).first?.text else { continue }
            // Framed as found, then half a sign's height closer: Tesseract reads some words
            // with their comma in the one frame only.
            let inset = (fragment.span.upperBound - fragment.span.lowerBound) / 2
            let box = fragment.box
            for frame in [box, [box[0] + inset, box[1] + inset, box[2] - 2 * inset, box[3] - 2 * inset]] where frame[2] > 0 && frame[3] > 0 {
                let words = rereadLine(frame).filter { fragment.span.contains($0.box[1] + $0.box[3] / 2) }
                guard !words.isEmpty, PageLayout.meanConfidence(words) >= 0.8, PageLayout.restoresCommas(words, of: old) else { continue }
                layout.replace(fragment, with: words)
                break
            }
        }
    }

    /// Tables whose cells the reading lost (``PageLayout/columnTables(marks:)``) read again as one
    /// block, row by row; the second reading is kept when it holds three digits or more beyond the first (a
    /// column of numbers the first left out), no fewer letters and digits, three rows or more,
    /// and reads about as surely (mean confidence at most 0.05 lower, or 0.8 or more: the cells
    /// found anew are read less surely than the rest).
    private func rereadColumnTables(in layout: inout PageLayout, marks: [[Int]], textHeight: Int?) {
        guard let textHeight else { return }
        var tried: [[Int]] = []
        for _ in 0..<3 {
            guard let table = layout.columnTables(marks: marks).first(where: { !tried.contains($0.box) }) else { return }
            tried.append(table.box)
            let old = layout.rows(of: table).joined()
            let pad = textHeight / 2
            let box = [max(0, table.box[0] - pad), max(0, table.box[1] - pad / 2),
                       min(layout.pageWidth, table.box[0] + table.box[2] + pad) - max(0, table.box[0] - pad),
                       min(layout.pageHeight, table.box[1] + table.box[3] + pad / 2) - max(0, table.box[1] - pad / 2)]
            let rows = table.box[1]...(table.box[1] + table.box[3])
            let lines = rereadBlock(box).map { line in line.filter { rows.contains($0.box[1] + $0.box[3] / 2) } }.filter { !$0.isEmpty }
            let new = lines.joined()
            func digits(_ words: some Collection<PageLayout.Word>) -> Int {
                words.reduce(0) { $0 + $1.text.filter { $0.isASCII && $0.isNumber }.count }
            }
            guard lines.count >= 3, digits(new) >= digits(old) + 3,
                  PageLayout.alphanumerics(new) >= PageLayout.alphanumerics(old),
                  PageLayout.meanConfidence(new) >= min(0.8, PageLayout.meanConfidence(old) - 0.05) else { continue }
            layout.replace(table, withLines: lines)
        }
    }

    /// The boxes (x, y, width, height) of the connected dark marks of a black and white page (the
    /// one Tesseract made of the image it read).
    private static func marks(_ binary: UnsafeMutablePointer<PIX>) -> [[Int]] {
        guard let boxes = pixConnCompBB(binary, 8) else { return [] }
        var list: UnsafeMutablePointer<BOXA>? = boxes
        defer { boxaDestroy(&list) }
        var result: [[Int]] = []
        for index in 0..<boxaGetCount(boxes) {
            var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
            guard boxaGetBoxGeometry(boxes, index, &x, &y, &w, &h) == 0 else { continue }
            result.append([Int(x), Int(y), Int(w), Int(h)])
        }
        return result
    }

    /// The words of the last reading, as Tesseract grouped them; nil when there are none.
    private func readLayout() -> PageLayout? {
        guard let iterator = TessBaseAPIGetIterator(handle) else { return nil }
        defer { TessResultIteratorDelete(iterator) }
        let pageIterator = TessResultIteratorGetPageIterator(iterator)
        var layout = PageLayout()
        repeat {
            guard let cText = TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
            let text = String(cString: cText)
            TessDeleteText(cText)
            let confidence = Double(TessResultIteratorConfidence(iterator, RIL_WORD)) / 100
            if TessPageIteratorIsAtBeginningOf(pageIterator, RIL_BLOCK) != 0 || layout.blocks.isEmpty {
                layout.startBlock(box: Self.box(pageIterator, RIL_BLOCK))
            } else if TessPageIteratorIsAtBeginningOf(pageIterator, RIL_PARA) != 0 {
                layout.startParagraph()
            } else if TessPageIteratorIsAtBeginningOf(pageIterator, RIL_TEXTLINE) != 0 {
                layout.startLine()
            }
            var word = PageLayout.Word(text: text, confidence: confidence, box: Self.box(pageIterator, RIL_WORD))
            if PageLayout.mayBeStop(text) {
                word = PageLayout.fullStop(word, symbols: Self.symbolBoxes(iterator))
            }
            if let comma = PageLayout.commaBetweenWords(word.text) {
                for part in PageLayout.commaApart(word, at: comma, symbols: Self.symbolBoxes(iterator)) { layout.add(part) }
                continue
            }
            if PageLayout.beginsWithComparisonSign(word.text) {
                for part in PageLayout.comparisonSignApart(word, symbols: Self.symbolBoxes(iterator)) { layout.add(part) }
                continue
            }
            guard TokenShape.mayBeDigitGroups(word.text) else {
                layout.add(word)
                continue
            }
            for part in PageLayout.digitGroups(word, symbols: Self.symbolBoxes(iterator)) { layout.add(part) }
        } while TessResultIteratorNext(iterator, RIL_WORD) != 0
        return layout
    }

    /// The boxes of the signs of the word `iterator` stands at, from its first to its last.
    private static func symbolBoxes(_ iterator: OpaquePointer) -> [[Int]] {
        guard let symbols = TessResultIteratorCopy(iterator) else { return [] }
        defer { TessResultIteratorDelete(symbols) }
        let page = TessResultIteratorGetPageIterator(symbols)
        var boxes: [[Int]] = []
        while boxes.count < 32 {
            boxes.append(box(page, RIL_SYMBOL))
            guard TessPageIteratorIsAtFinalElement(page, RIL_WORD, RIL_SYMBOL) == 0,
                  TessResultIteratorNext(symbols, RIL_SYMBOL) != 0 else { break }
        }
        return boxes
    }

    /// Tesseract's reading of the image set (or the rectangle of it). The PNG it makes in memory
    /// of each line it reads is made uncompressed while it reads: the same pixels, in less time.
    private func recognizeImage() -> Bool {
        arkivator_png_quick_begin()
        defer { arkivator_png_quick_end() }
        return TessBaseAPIRecognize(handle, nil) == 0
    }

    /// The words in `box` (x, y, width, height) of the image last read, read again as one line.
    private func rereadLine(_ box: [Int]) -> [PageLayout.Word] {
        TessBaseAPISetPageSegMode(handle, PSM_SINGLE_LINE)
        defer { TessBaseAPISetPageSegMode(handle, PSM_AUTO) }
        TessBaseAPISetRectangle(handle, Int32(box[0]), Int32(box[1]), Int32(box[2]), Int32(box[3]))
        guard recognizeImage() else { return [] }
        return readLayout()?.words ?? []
    }

    /// The lines in `box` (x, y, width, height) of the image last read, read again as one block
    /// of text, top to bottom.
    private func rereadBlock(_ box: [Int]) -> [[PageLayout.Word]] {
        TessBaseAPISetPageSegMode(handle, PSM_SINGLE_BLOCK)
        defer { TessBaseAPISetPageSegMode(handle, PSM_AUTO) }
        TessBaseAPISetRectangle(handle, Int32(box[0]), Int32(box[1]), Int32(box[2]), Int32(box[3]))
        guard recognizeImage(), let layout = readLayout() else { return [] }
        return layout.blocks.flatMap { $0.paragraphs.joined() }.filter { !$0.isEmpty }
    }

    private static func box(_ iterator: OpaquePointer?, _ level: TessPageIteratorLevel) -> [Int] {
        var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
        TessPageIteratorBoundingBox(iterator, level, &left, &top, &right, &bottom)
        return [Int(left), Int(top), Int(right - left), Int(bottom - top)]
    }

    /// The OpenMP thread limit in force in this process, as the OpenMP runtime that Tesseract
    /// loaded reports it (nil when no OpenMP runtime is loaded).
    public static func openMPThreadLimit() -> Int? {
        guard let program = dlopen(nil, RTLD_NOW) else { return nil }
        defer { dlclose(program) }
        guard let symbol = dlsym(program, "omp_get_thread_limit") else { return nil }
        typealias Function = @convention(c) () -> Int32
        return Int(unsafeBitCast(symbol, to: Function.self)())
    }
}

/// Finds whether a page is upright, sideways or upside down (Tesseract OSD).
///
/// Slower than reading a page, so the pipeline asks only when a first reading looks poor.
/// Not thread-safe, like `TesseractEngine`.
public final class OrientationDetector {
    private let handle: OpaquePointer

    public init(dataPath: String? = nil) throws(OCRError) {
        guard let handle = TessBaseAPICreate() else { throw OCRError.recognitionFailed }
        self.handle = handle
        TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        let status: Int32 = if let dataPath { TessBaseAPIInit3(handle, dataPath, "osd") } else { TessBaseAPIInit3(handle, nil, "osd") }
        guard status == 0 else {
            TessBaseAPIDelete(handle)
            throw OCRError.missingLanguage("osd")
        }
        TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        TessBaseAPISetPageSegMode(handle, PSM_OSD_ONLY)
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Quarter turns clockwise that make the text upright, with OSD's confidence; nil when
    /// OSD finds too little text to tell.
    public func uprightTurns(_ image: Image, dpi: Int = 300) -> (quarterTurns: Int, confidence: Double)? {
        defer { TessBaseAPIClear(handle) }
        TessBaseAPISetImage2(handle, image.pix)
        TessBaseAPISetSourceResolution(handle, Int32(dpi))
        var degrees: Int32 = 0
        var confidence: Float = 0
        var scriptConfidence: Float = 0
        guard TessBaseAPIDetectOrientationScript(handle, &degrees, &confidence, nil, &scriptConfidence) != 0 else {
            return nil
        }
        // `degrees` is how far the page is turned clockwise; turning it back is the rest of a full turn.
        let turns = ((360 - Int(degrees)) % 360) / 90
        return (turns, Double(confidence))
    }
}




