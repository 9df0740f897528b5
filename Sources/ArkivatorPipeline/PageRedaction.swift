import ArkivatorArchive
import ArkivatorCore
import ArkivatorImaging
import ArkivatorOCR
import Foundation

/// Fødselsnumre on a page image: which words of a reading make them up, the page with a solid
/// black box over those words, and the page's text lines for a PDF with the numbers hidden.
/// `ingest --redact` uses its own reading of the page; `redact` reads the archived page again
/// (the library keeps no word boxes).
package enum PageRedaction {
    /// Written into every page JPEG whose numbers were boxed (a JPEG comment), so `show` can
    /// tell a page that was gone over from one that never was.
    package static let marker = "arkivator: fodselsnummer redacted"

    /// The indexes of the words in `page` that make up a fødselsnummer: the words the detector's
    /// matches in the page text touch, and runs of number words on one line whose digits, read
    /// together from a word's start to a word's end, give a valid number or one of `known` (OCR
    /// splits "26018704454" anywhere: "2601 8704454", "260187-04454").
    package static func numberWords(in page: OCRPage, known: Set<String> = []) -> [Int] {
        var marked = Set<Int>()
        let matches = Fodselsnummer.matches(in: page.text)
        for (index, word) in page.words.enumerated() {
            let range = word.start..<(word.start + word.length)
            if matches.contains(where: { $0.range.overlaps(range) }) { marked.insert(index) }
        }
        let scalars = Array(page.text.unicodeScalars)
        var run: [Int] = []
        func flush() {
            defer { run = [] }
            var digits: [Character] = []
            var owner: [Int] = []
            var starts = Set<Int>(), ends = Set<Int>()
            for index in run {
                starts.insert(digits.count)
                for c in page.words[index].text where c.isASCII && c.isNumber {
                    digits.append(c)
                    owner.append(index)
                }
                ends.insert(digits.count)
            }
            guard digits.count >= 11 else { return }
            for start in 0...(digits.count - 11) where starts.contains(start) && ends.contains(start + 11) {
                let candidate = String(digits[start..<(start + 11)])
                if known.contains(candidate) || (try? Fodselsnummer(candidate)) != nil {
                    for k in start..<(start + 11) { marked.insert(owner[k]) }
                }
            }
        }
        for (index, word) in page.words.enumerated() {
            let numeric = isNumberWord(word.text)
            if numeric, let last = run.last, onOneLine(page.words[last], word, scalars) {
                run.append(index)
            } else {
                flush()
                if numeric { run = [index] }
            }
        }
        flush()
        return marked.sorted()
    }

    /// Digits, perhaps with the separators a number is printed or read with.
    private static func isNumberWord(_ text: String) -> Bool {
        text.contains { $0.isASCII && $0.isNumber } && text.allSatisfy { ($0.isASCII && $0.isNumber) || ".-–/:,;()".contains($0) }
    }

    /// Whether no line break stands between two words of the text.
    private static func onOneLine(_ a: RecognizedWord, _ b: RecognizedWord, _ scalars: [Unicode.Scalar]) -> Bool {
        let from = min(scalars.count, a.start + a.length), to = min(scalars.count, max(from, b.start))
        return !scalars[from..<to].contains("\n")
    }

    /// The page's text lines for a PDF text layer, every number hidden (see ``hidingDigits(_:marked:)``),
    /// every match masked `DDMMYY •••••`, and the digits of each of `known` hidden however a
    /// line splits them (see ``Redaction/redact(_:known:)``).
    package static func redactedLines(_ page: OCRPage, marked: [Int], known: Set<String> = []) -> [SearchablePDF.Line] {
        hidingDigits(page, marked: marked).lines.map { SearchablePDF.Line(text: Redaction.redact($0.text, known: known), box: $0.box) }
    }

    /// The reading with the digits of the marked words that no detector match within one line
    /// covers made • (offsets kept): a number split in a way the detector does not read, or
    /// broken across a line break (the lines of a PDF's text are masked one by one), is hidden
    /// whole, and what the detector finds on one line is left for ``Redaction/redact(_:)``.
    package static func hidingDigits(_ page: OCRPage, marked: [Int]) -> OCRPage {
        var scalars = Array(page.text.unicodeScalars)
        let original = scalars
        let matches = Fodselsnummer.matches(in: page.text).filter { match in
            !original[match.range].contains { $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
        }
        for index in marked {
            let word = page.words[index]
            let range = word.start..<min(scalars.count, word.start + word.length)
            guard !matches.contains(where: { $0.range.overlaps(range) }) else { continue }
            for i in range where ("0"..."9").contains(scalars[i]) { scalars[i] = "•" }
        }
        var hidden = page
        hidden.text = String(String.UnicodeScalarView(scalars))
        return hidden
    }

    /// The boxes to paint: each marked word's box.
    package static func boxes(_ page: OCRPage, marked: [Int]) -> [[Int]] {
        marked.map { page.words[$0].box }
    }

    /// `image` with a black box over each marked word, as an archive JPEG carrying ``marker``.
    package static func boxedJPEG(_ image: Image, boxes: [[Int]]) throws -> [UInt8] {
        let painted = try image.grayscale().blackedOut(paintedBoxes(boxes))
        return withMarker(try painted.jpegData(quality: PageReader.jpegQuality))
    }

    /// The boxes as painted: each word's box with a margin of a fifth of the tallest word's
    /// height (no stroke of a digit stays outside), widened to whole 8×8 blocks of the JPEG, so
    /// each block under a box is one even black that compression leaves solid.
    package static func paintedBoxes(_ boxes: [[Int]]) -> [[Int]] {
        let margin = max(3, (boxes.map { $0.count == 4 ? $0[3] : 0 }.max() ?? 0) / 5)
        return boxes.filter { $0.count == 4 }.map { box in
            let left = max(0, box[0] - margin) / 8 * 8, top = max(0, box[1] - margin) / 8 * 8
            let right = (box[0] + box[2] + margin + 7) / 8 * 8, bottom = (box[1] + box[3] + margin + 7) / 8 * 8
            return [left, top, right - left, bottom - top]
        }
    }

    /// JPEG bytes with a comment segment (``marker``) after the JFIF header, if any.
    package static func withMarker(_ jpeg: [UInt8]) -> [UInt8] {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8, !hasMarker(jpeg) else { return jpeg }
        var at = 2
        if jpeg[2] == 0xFF, jpeg[3] == 0xE0, jpeg.count > 6 {
            at = min(jpeg.count, 4 + Int(jpeg[4]) << 8 + Int(jpeg[5]))
        }
        let comment = Array(marker.utf8)
        let length = comment.count + 2
        var marked = Array(jpeg[..<at])
        marked += [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)]
        marked += comment
        marked += jpeg[at...]
        return marked
    }

    /// Whether a page JPEG was gone over by `redact` or `ingest --redact`: a comment segment
    /// before the image data holds ``marker``.
    package static func hasMarker(_ jpeg: [UInt8]) -> Bool {
        let comment = Array(marker.utf8)
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF, jpeg[at + 1] != 0xDA {
            let length = Int(jpeg[at + 2]) << 8 + Int(jpeg[at + 3])
            guard length >= 2 else { return false }
            if jpeg[at + 1] == 0xFE, at + 2 + length <= jpeg.count, Array(jpeg[(at + 4)..<(at + 2 + length)]) == comment {
                return true
            }
            at += 2 + length
        }
        return false
    }

    /// A read page for the archive with its numbers hidden: a black box over them in the JPEG,
    /// and in the reading the digits of a split number hidden (offsets kept; the PDF's text layer
    /// masks the rest, see ``ArchiveStage``). A page without a JPEG or a number is kept as it is, except for
    /// the JPEG's marker. `held` is the image the JPEG was made from, when it is still in memory
    /// (else the JPEG is decoded again).
    package static func redacted(_ page: PageReader.ReadPage, image held: Image? = nil, known: Set<String> = []) throws -> PageReader.ReadPage {
        guard let jpeg = page.jpeg else { return page }
        var result = page
        let marked = numberWords(in: page.ocr, known: known)
        guard !marked.isEmpty, let image = try held ?? Image.decodePages(jpeg).first else {
            result.jpeg = withMarker(jpeg)
            return result
        }
        result.jpeg = try boxedJPEG(image, boxes: boxes(page.ocr, marked: marked))
        result.ocr = hidingDigits(page.ocr, marked: marked)
        return result
    }
}
