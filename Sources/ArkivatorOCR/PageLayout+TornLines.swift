/// One printed line that Tesseract tore into two of its lines: "Brevdato: 10 5" on the line of the
/// address beside it and ": 10.09.202" on a line of its own, the words of one standing inside
/// the other's, at the same height. Read again as one line, it comes out whole.
extension PageLayout {
    /// A printed line torn in two: the words of the line that holds more of it, which the second
    /// reading replaces, and those of the other line, which that reading takes in.
    struct TornLine: Equatable {
        var kept: Fragment
        var taken: Fragment
        /// Both pieces' box, widened by half their height on every side (x, y, width, height).
        var box: [Int]
        /// From the top of both pieces to their bottom, unwidened.
        var span: ClosedRange<Int>
    }

    /// Two words of different lines that share half the smaller one's box or more (two lines
    /// never stand in one place, one line torn apart does), or overlap side by side at one
    /// height, and with them the words of both lines
    /// that stand at their height, side by side with them, less than a word height apart (the
    /// line's other pieces: "Brevdato:" and the "5" of "2025"); the words of both lines of one
    /// size of print (their lower middle heights three quarters of each other or more). At most
    /// `limit`.
    func tornLines(limit: Int = 3) -> [TornLine] {
        typealias Place = (block: Int, paragraph: Int, line: Int)
        var lines: [(place: Place, words: [Word])] = []
        for (b, block) in blocks.enumerated() {
            for (p, paragraph) in block.paragraphs.enumerated() {
                for (l, line) in paragraph.enumerated() where !line.isEmpty { lines.append(((b, p, l), line)) }
            }
        }
        func shared(_ a: [Int], _ b: [Int]) -> Int {
            max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])) * max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
        }
        // Or that overlap side by side at one height (sharing three quarters of the smaller
        // height): "Postboks 531." on a line of its own and "3 Majorstuen" after a letterhead's
        // name, where the 3 overlaps the point.
        func touching(_ a: [Int], _ b: [Int]) -> Bool {
            let across = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
            let down = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
            return across > 0 && 4 * down >= 3 * min(a[3], b[3])
        }
        var found: [TornLine] = []
        var used = Set<Int>()
        for i in lines.indices where !used.contains(i) {
            search: for j in lines.indices where j > i && !used.contains(j) {
                for u in lines[i].words where Self.alphanumerics([u]) > 0 {
                    for v in lines[j].words where Self.alphanumerics([v]) > 0 {
                        guard u.box[3] > 0, v.box[3] > 0,
                              2 * shared(u.box, v.box) >= min(u.box[2] * u.box[3], v.box[2] * v.box[3]) || touching(u.box, v.box) else { continue }
                        // Grow from the two words along both lines, at their height.
                        let top = min(u.box[1], v.box[1]), bottom = max(u.box[1] + u.box[3], v.box[1] + v.box[3])
                        let height = max(u.box[3], v.box[3])
                        var left = min(u.box[0], v.box[0]), right = max(u.box[0] + u.box[2], v.box[0] + v.box[2])
                        func atHeight(_ w: Word) -> Bool {
                            2 * (min(bottom, w.box[1] + w.box[3]) - max(top, w.box[1])) >= min(height, w.box[3])
                        }
                        var taken: [Set<Int>] = [[], []]
                        var grew = true
                        while grew {
                            grew = false
                            for (side, k) in [i, j].enumerated() {
                                for (index, w) in lines[k].words.enumerated() where !taken[side].contains(index) && atHeight(w) {
                                    guard w.box[0] <= right + height, w.box[0] + w.box[2] >= left - height else { continue }
                                    taken[side].insert(index)
                                    left = min(left, w.box[0])
                                    right = max(right, w.box[0] + w.box[2])
                                    grew = true
                                }
                            }
                        }
                        guard let a = taken[0].min(), let a1 = taken[0].max(), let c = taken[1].min(), let c1 = taken[1].max() else { continue }
                        // One line is one size of print: small print beside a large name that a
                        // garbled word of the name reaches into is two lines.
                        let sizes = [Self.printHeights(lines[i].words[a...a1]), Self.printHeights(lines[j].words[c...c1])].map { $0[($0.count - 1) / 2] }
                        guard let smaller = sizes.min(), let larger = sizes.max(), 4 * smaller >= 3 * larger else { continue }
                        let pieces = [(lines[i], a..<(a1 + 1)), (lines[j], c..<(c1 + 1))].map { line, range in
                            Fragment(block: line.place.block, paragraph: line.place.paragraph, line: line.place.line, words: range,
                                     box: [], confidence: Self.meanConfidence(line.words[range]))
                        }
                        let wider = Self.alphanumerics(lines[i].words[a...a1]) >= Self.alphanumerics(lines[j].words[c...c1]) ? 0 : 1
                        let pad = height / 2
                        let x = max(0, left - pad), y = max(0, top - pad)
                        found.append(TornLine(kept: pieces[wider], taken: pieces[1 - wider],
                                              box: [x, y, min(pageWidth, right + pad) - x, min(pageHeight, bottom + pad) - y],
                                              span: top...bottom))
                        used.formUnion([i, j])
                        if found.count == limit { return found }
                        break search
                    }
                }
            }
        }
        return found
    }
}
