import ArkivatorClassify
import ArkivatorLibrary
import ArkivatorOCR

/// Where the numbers in doubt (``NumberDoubt``) stand on the pages: the box of the OCR words
/// each one's range overlaps, in the page image's pixels, kept with the document
/// (``NumberMark``) so the review and document pages outline it over the page image.
package enum NumberMarks {
    /// The marks of `numbers` (places in the document's text: the pages' texts joined by
    /// ``RecordAssembler/pageSeparator``, as the record's text is before any masking); nil when
    /// none has a word to box.
    package static func marks(_ numbers: [DoubtfulNumber], pages: [OCRPage]) -> [NumberMark]? {
        guard !numbers.isEmpty else { return nil }
        let separator = RecordAssembler.pageSeparator.unicodeScalars.count
        var marks: [NumberMark] = []
        var pageStart = 0
        for (index, page) in pages.enumerated() {
            let length = page.text.unicodeScalars.count
            marks += self.marks(numbers, on: page, number: index + 1, from: pageStart, length: length)
            pageStart += length + separator
        }
        return marks.isEmpty ? nil : marks
    }

    /// The marks of those of `numbers` that stand on one page, whose text starts at `from` in
    /// the document's text and is `length` scalars long.
    package static func marks(_ numbers: [DoubtfulNumber], on page: OCRPage, number: Int, from pageStart: Int,
                      length: Int) -> [NumberMark] {
        var marks: [NumberMark] = []
        for doubtful in numbers where doubtful.length > 0 && doubtful.start >= pageStart
            && doubtful.start + doubtful.length <= pageStart + length {
            let start = doubtful.start - pageStart, end = start + doubtful.length
            let words = page.words.filter { $0.box.count == 4 && $0.box[2] > 0 && $0.box[3] > 0
                && $0.start < end && start < $0.start + $0.length }
            for box in boxes(words.map(\.box)) {
                marks.append(NumberMark(page: number, box: box, text: doubtful.text, start: doubtful.start,
                                        length: doubtful.length))
            }
        }
        return marks
    }

    /// Where a place of the document's text (Unicode scalars, pages joined as in
    /// ``marks(_:pages:)``) stands: its page (1…) and the box of the words it overlaps on their
    /// first line; nil when no word with a box holds it.
    package static func place(start: Int, length: Int, pages: [OCRPage]) -> (page: Int, box: [Int])? {
        guard length > 0 else { return nil }
        let separator = RecordAssembler.pageSeparator.unicodeScalars.count
        var pageStart = 0
        for (index, page) in pages.enumerated() {
            let pageLength = page.text.unicodeScalars.count
            if start >= pageStart, start + length <= pageStart + pageLength {
                let from = start - pageStart, end = from + length
                let words = page.words.filter { $0.box.count == 4 && $0.box[2] > 0 && $0.box[3] > 0
                    && $0.start < end && from < $0.start + $0.length }
                return boxes(words.map(\.box)).first.map { (index + 1, $0) }
            }
            pageStart += pageLength + separator
        }
        return nil
    }

    /// The words' boxes joined: one box for the words of one line (boxes that overlap in
    /// height), a box of its own for a word on another line.
    package static func boxes(_ boxes: [[Int]]) -> [[Int]] {
        var joined: [[Int]] = []
        for box in boxes {
            if let index = joined.firstIndex(where: { $0[1] < box[1] + box[3] && box[1] < $0[1] + $0[3] }) {
                let current = joined[index]
                let left = min(current[0], box[0]), top = min(current[1], box[1])
                let right = max(current[0] + current[2], box[0] + box[2]), bottom = max(current[1] + current[3], box[1] + box[3])
                joined[index] = [left, top, right - left, bottom - top]
            } else {
                joined.append(box)
            }
        }
        return joined
    }

    /// A document's marks after page `page` was read again (`ocr`): the other pages' marks kept
    /// (those after the page moved with its new length), the page's own made anew from the
    /// numbers in doubt in the new text. `old` is the document before, `updated` after.
    package static func rereading(_ old: LibraryDocument, into updated: LibraryDocument, page: Int, ocr: OCRPage) -> [NumberMark]? {
        let separator = RecordAssembler.pageSeparator
        let oldTexts = old.text.components(separatedBy: separator)
        let newTexts = updated.text.components(separatedBy: separator)
        guard page >= 1, page <= newTexts.count else { return old.numberMarks }
        let pageStart = newTexts[..<(page - 1)].reduce(0) { $0 + $1.unicodeScalars.count + separator.unicodeScalars.count }
        let oldLength = page <= oldTexts.count ? oldTexts[page - 1].unicodeScalars.count : 0
        let newLength = ocr.text.unicodeScalars.count
        var marks: [NumberMark] = []
        for mark in old.numberMarks ?? [] where mark.page != page {
            var moved = mark
            if mark.page > page { moved.start += newLength - oldLength }
            marks.append(moved)
        }
        // The places the re-reading marked (the numbers it found in doubt among them).
        let doubtful = NumberDoubt.doubtfulNumbers(in: updated.text, lowConfidence: updated.lowConfidence.map { ($0.start, $0.length) })
        marks += self.marks(doubtful, on: ocr, number: page, from: pageStart, length: newLength)
        marks.sort { ($0.page, $0.start) < ($1.page, $1.start) }
        return marks.isEmpty ? nil : marks
    }
}
