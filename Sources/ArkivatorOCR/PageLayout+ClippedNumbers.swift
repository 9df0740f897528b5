/// Numbers that lost a sign at an end: Tesseract now and then reads two like signs at a
/// number's end as one ("24/09091-1" for "24/09091-11"), and frames the word without the sign
/// it left out, which stays on the page with no word on it. Read again as a line on its own, the
/// number comes out whole.
extension PageLayout {
    /// A word holding a digit, and the mark its reading left out at one end.
    struct ClippedNumber: Equatable {
        var fragment: Fragment
        /// Whether the sign left out stands after the word (else before it).
        var after: Bool
    }

    /// Words holding a digit with a mark of the page (`marks`, x, y, width, height) beside them
    /// that no word touches: right after or right before the word, less than half the word's
    /// height away, as tall as its signs (from three fifths of the word's height to a quarter
    /// more than it) and within its height (a quarter of it above or below at most), and no
    /// thinner than a fifth of its own height (a rule beside a table's cell is thinner). The
    /// fragment's box reaches over the mark and half a word height above and below, and sideways
    /// no nearer than halfway to the words beside it. At most `limit`.
    func clippedNumbers(marks: [[Int]], limit: Int = 4) -> [ClippedNumber] {
        let covers = blocks.flatMap { $0.paragraphs.joined().joined() }.map(\.box)
        var found: [ClippedNumber] = []
        for (b, block) in blocks.enumerated() {
            for (p, paragraph) in block.paragraphs.enumerated() {
                for (l, line) in paragraph.enumerated() {
                    for (i, word) in line.enumerated() where word.text.contains(where: \.isNumber) && word.box.count == 4 {
                        let (left, top, width, h) = (word.box[0], word.box[1], word.box[2], word.box[3])
                        guard h >= 8 else { continue }
                        let right = left + width
                        func beside(_ m: [Int]) -> Bool? {
                            guard 5 * m[3] >= 3 * h, 4 * m[3] <= 5 * h, 5 * m[2] >= m[3],
                                  4 * m[1] >= 4 * top - h, 4 * (m[1] + m[3]) <= 4 * (top + h) + h else { return nil }
                            if m[0] >= right, 2 * (m[0] - right) < h { return true }
                            if m[0] + m[2] <= left, 2 * (left - (m[0] + m[2])) < h { return false }
                            return nil
                        }
                        guard let (mark, after) = marks.lazy.compactMap({ m in beside(m).map { (m, $0) } })
                            .first(where: { m, _ in !covers.contains { Self.touches(m, $0) } }) else { continue }
                        // Sideways, halfway to the words beside it at most.
                        let before = i > 0 ? line[i - 1].box[0] + line[i - 1].box[2] : nil
                        let next = i + 1 < line.count ? line[i + 1].box[0] : nil
                        let from = min(left, mark[0]), to = max(right, mark[0] + mark[2])
                        let x = max(0, before.map { max(from - h / 2, ($0 + from + 1) / 2) } ?? from - h / 2)
                        let end = min(pageWidth, next.map { min(to + h / 2, ($0 + to) / 2) } ?? to + h / 2)
                        let y = max(0, top - h / 2), bottom = min(pageHeight, top + h + h / 2)
                        guard end > x, bottom > y else { continue }
                        found.append(ClippedNumber(fragment: Fragment(block: b, paragraph: p, line: l, words: i..<(i + 1),
                                                                      box: [x, y, end - x, bottom - y], confidence: word.confidence,
                                                                      span: top...(top + h)),
                                                   after: after))
                        if found.count == limit { return found }
                    }
                }
            }
        }
        return found
    }
}
