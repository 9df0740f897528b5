/// Numbers read without their decimal comma: in a line of large print Tesseract now and then
/// reads "3,3 L" as "33L" or "3,5 - 4,4" as "35–44", though the comma stands plainly on the page
/// (a mark of its own at the foot of the digits). Read again as a word on its own, the number
/// comes out with its comma.
extension PageLayout {
    /// Words that read as a number without a comma or a point ("33L", "16", "35–44": digits,
    /// with an H or L after them or a dash between two groups), with a mark of the page
    /// (`marks`, x, y, width, height) inside their box that is shaped and placed as a comma: between
    /// two of the word's signs (an eighth of their height from either end at least), its top in
    /// the lower two fifths of the signs, reaching at most a third of their height below them,
    /// from a tenth to half of their height tall and at most a third of it wide. The signs are
    /// the word's marks a third of its box's height tall or more. The fragment's box reaches
    /// the signs' height above, below and sideways (Tesseract reads the word framed closer
    /// without its comma again), no nearer than halfway to the words beside it. At most `limit`.
    func lostCommas(marks: [[Int]], limit: Int = 6) -> [Fragment] {
        var found: [Fragment] = []
        for (b, block) in blocks.enumerated() {
            for (p, paragraph) in block.paragraphs.enumerated() {
                for (l, line) in paragraph.enumerated() {
                    for (i, word) in line.enumerated() where word.box.count == 4 && Self.readsAsCommaless(word.text) {
                        let (left, right) = (word.box[0], word.box[0] + word.box[2])
                        // The height of the word's signs, from its marks: a speck above the word
                        // can make its box taller.
                        let signs = marks.filter { m in
                            m[0] >= left && m[0] + m[2] <= right && m[1] >= word.box[1] && m[1] + m[3] <= word.box[1] + word.box[3]
                                && 3 * m[3] >= word.box[3]
                        }
                        guard let top = signs.map({ $0[1] }).min(), let foot = signs.map({ $0[1] + $0[3] }).max(),
                              foot - top >= 12 else { continue }
                        let h = foot - top
                        let comma = marks.contains { m in
                            8 * m[0] >= 8 * left + h && 8 * (m[0] + m[2]) <= 8 * right - h
                                && 5 * m[1] >= 5 * top + 3 * h && 3 * (m[1] + m[3]) <= 3 * (top + h) + h
                                && 10 * m[3] >= h && 2 * m[3] <= h && m[2] >= 2 && 3 * m[2] <= h
                        }
                        guard comma else { continue }
                        let before = i > 0 ? line[i - 1].box[0] + line[i - 1].box[2] : nil
                        let next = i + 1 < line.count ? line[i + 1].box[0] : nil
                        let x = max(0, before.map { max(left - h, ($0 + left + 1) / 2) } ?? left - h)
                        let end = min(pageWidth, next.map { min(right + h, ($0 + right) / 2) } ?? right + h)
                        let y = max(0, top - h), bottom = min(pageHeight, foot + h)
                        guard end > x, bottom > y else { continue }
                        found.append(Fragment(block: b, paragraph: p, line: l, words: i..<(i + 1), box: [x, y, end - x, bottom - y],
                                              confidence: word.confidence, span: top...foot))
                        if found.count == limit { return found }
                    }
                }
            }
        }
        return found
    }

    /// Whether a word reads as a number that may have lost its comma: two digits or more, no
    /// comma or point, an H or L flag after them, or two groups of digits with a dash between.
    static func readsAsCommaless(_ text: String) -> Bool {
        text.wholeMatch(of: /\d{2,}[HL]?/) != nil || text.wholeMatch(of: /\d+[-–]\d+/) != nil
    }

    /// Whether `again` (a second reading of the word `old`) is `old` with its commas: the same
    /// signs, dashes alike and spaces aside, with a comma between two digits.
    static func restoresCommas(_ again: [Word], of old: String) -> Bool {
        func plain(_ text: String) -> String { String(text.filter { $0 != " " && $0 != "," }.map { $0 == "–" ? "-" : $0 }) }
        let text = again.map(\.text).joined(separator: " ")
        return plain(text) == plain(old) && text.contains(/\d,\d/)
    }
}
