import Foundation

/// Reading order: the page's blocks in bands and columns, and blocks cut where their lines
/// stand in two columns side by side.
extension PageLayout {
    /// Blocks in reading order: top to bottom in bands; within a band of blocks side by side (a
    /// letterhead's two columns, an address beside a reference block), column by column, left
    /// to right, each column top to bottom; names signed side by side below the first band, each
    /// with its title under it, and labelled fields beside labelled fields (a form), row by row
    /// (``signedRows(_:_:)``, ``formRows(_:_:)``).
    ///
    /// A block joins the band above it when it starts before the band ends and stands beside one
    /// of the band's blocks, or, once the band has two columns, when it lies right under a block
    /// of its own column at the spacing of lines (the sender's next lines, under the first and
    /// beside the telephone numbers).
    ///
    /// A block that runs on below every block beside it, after an empty line or more, is read as
    /// two (``cuttingBelowNeighbours(_:)``): its lines beside them in their band, the rest after.
    func orderedBlocks() -> [Block] {
        let sorted = cuttingBelowNeighbours(blocks).sorted { ($0.top, $0.left) < ($1.top, $1.left) }
        func beside(_ a: Block, _ b: Block) -> Bool { a.right <= b.left || b.right <= a.left }
        var bands: [[Block]] = []
        /// Height of one line of a block.
        func lineHeight(_ block: Block) -> Int {
            max(1, (block.bottom - block.top) / max(1, block.paragraphs.joined().filter { !$0.isEmpty }.count))
        }
        for block in sorted {
            if var band = bands.last,
               let bottom = band.map(\.bottom).max(),
               band.allSatisfy({ beside($0, block) || $0.bottom <= block.top + 4 }),
               // Beside a block of the band, or, in a band of two columns already, right under
               // a block of its own column at the spacing of lines (a letterhead's next lines).
               (block.top < bottom - 4 && band.contains(where: { beside($0, block) && block.top < $0.bottom - 4 }))
                || (band.contains(where: { beside($0, band[0]) }) && band.contains(where: {
                    !beside($0, block) && block.top >= $0.bottom - 4 && block.top - $0.bottom <= lineHeight($0) })) {
                band.append(block)
                bands[bands.count - 1] = band
            } else {
                bands.append([block])
            }
        }
        return bands.enumerated().flatMap { index, band -> [Block] in
            var band = band
            /// The first two blocks of the band side by side (the first left of the second, their
            /// heights overlapping) that `join` makes one block of, with that block.
            func joining(_ join: (Block, Block) -> Block?) -> (left: Int, right: Int, joined: Block)? {
                for i in band.indices {
                    for j in band.indices where j != i && band[i].right <= band[j].left
                        && band[i].top < band[j].bottom && band[j].top < band[i].bottom {
                        if let joined = join(band[i], band[j]) { return (i, j, joined) }
                    }
                }
                return nil
            }
            // A grid of labelled fields in two blocks side by side ("Navn: …" beside "Født: …")
            // is one block, read row by row as it is filled in, wherever it stands.
            if let pair = joining({ formRows($0, $1) }) {
                band[pair.left] = pair.joined
                band.remove(at: pair.right)
            }
            // A list's labels in the margin ("A.", "B.", "1.") beside the items they begin are
            // read at the start of their lines.
            while let pair = joining({ listLabels($0, $1) }) {
                band[pair.right] = pair.joined
                band.remove(at: pair.left)
            }
            // A block under the band's columns that reaches across them (the text's first block,
            // which took the address's last line with it) is no column's: its first lines that
            // stand under one column, at the spacing of lines, end that column, and the rest is
            // read after the columns.
            let across = spanningBlocks(&band, lineHeight: lineHeight)
            // Columns: blocks that overlap horizontally, through any chain of them.
            var columns: [[Block]] = []
            for block in band.sorted(by: { $0.left < $1.left }) {
                if let index = columns.firstIndex(where: { $0.contains { !beside($0, block) } }) {
                    columns[index].append(block)
                } else {
                    columns.append([block])
                }
            }
            // Below the page's first band (its letterhead), outside the letterhead's fifth of the
            // page or under a closing greeting, names signed side by side are read across.
            if index > 0, columns.count == 2, columns.allSatisfy({ $0.count == 1 }),
               columns[0][0].top >= pageHeight / 5 || greetingAbove(columns[0][0].top),
               let rows = signedRows(columns[0][0], columns[1][0]) {
                return [rows] + across
            }
            return columns.flatMap { $0.sorted { $0.top < $1.top } } + across
        }
    }

    /// Takes out of `band` (blocks in reading order's bands, ``orderedBlocks()``) each block that
    /// starts below all the others and reaches under two of them that stand side by side, and
    /// returns what is read after the band's columns: such a block less its first lines that
    /// stand under a single block of the band, each within a line's height of the one above
    /// (those go back into the band, as a block of their own, to end that block's column).
    func spanningBlocks(_ band: inout [Block], lineHeight: (Block) -> Int) -> [Block] {
        func beside(_ a: Block, _ b: Block) -> Bool { a.right <= b.left || b.right <= a.left }
        func overlaps(_ left: Int, _ right: Int, _ block: Block) -> Bool { left < block.right && block.left < right }
        var after: [Block] = []
        var index = band.count - 1
        while index >= 0 {
            let block = band[index]
            let others = band.indices.filter { $0 != index }.map { band[$0] }
            let under = others.filter { !beside($0, block) }
            guard under.count >= 2, under.contains(where: { a in under.contains { beside(a, $0) } }),
                  others.allSatisfy({ $0.bottom <= block.top + 4 }) else {
                index -= 1
                continue
            }
            band.remove(at: index)
            let lines = blockLines(block)
            var lead = 0
            var above: Block?
            while lead < lines.count {
                let words = lines[lead].words
                let left = words.map { $0.box[0] }.min() ?? 0, right = words.map { $0.box[0] + $0.box[2] }.max() ?? 0
                let top = words.map { $0.box[1] }.min() ?? 0
                let over = others.filter { overlaps(left, right, $0) }
                guard over.count == 1, let column = over.first, column.bottom <= top + 4 else { break }
                let previous = lead > 0 ? lines[lead - 1].words.map { $0.box[1] + $0.box[3] }.max() ?? 0 : column.bottom
                guard above == nil || above?.left == column.left, top - previous <= lineHeight(column) else { break }
                above = column
                lead += 1
            }
            if lead > 0 { band.append(Self.block(of: lines[..<lead])) }
            if lead < lines.count { after.insert(Self.block(of: lines[lead...]), at: 0) }
            index = min(index, band.count) - 1
        }
        return after
    }

    /// Two blocks side by side whose lines, beside each other, are labelled fields: every line of
    /// the right block stands beside a line of the left one, and both begin with a label
    /// ("Navn: …", "Født: …"); the left block may hold more lines above or below (a heading).
    /// As one block: the left lines in order, each with the line beside it after it.
    private func formRows(_ left: Block, _ right: Block) -> Block? {
        let a = blockLines(left).map(\.words), b = blockLines(right).map(\.words)
        func top(_ line: [Word]) -> Int { line.map { $0.box[1] }.min() ?? 0 }
        guard (2...8).contains(b.count), a.count >= b.count else { return nil }
        let height = max(1, (right.bottom - right.top) / b.count)
        var partner: [Int: Int] = [:]
        for (j, line) in b.enumerated() {
            guard Self.isLabelled(line), let i = a.indices.first(where: { abs(top(a[$0]) - top(line)) <= height / 2 }),
                  partner[i] == nil, Self.isLabelled(a[i]) else { return nil }
            partner[i] = j
        }
        let y = min(left.top, right.top)
        var block = Block(box: [left.left, y, right.right - left.left, max(left.bottom, right.bottom) - y])
        block.paragraphs = [a.indices.map { i in a[i] + (partner[i].map { b[$0] } ?? []) }]
        return block
    }

    /// A block of a list's labels in the margin (every line one label, ``hasListLabelShape(_:)``)
    /// beside the block of the items they begin, less than six of the items' line heights to the
    /// left, each label beside a line of it (their tops within half a line): the items' block
    /// with each label at the start of the line beside it; nil when they are not.
    private func listLabels(_ left: Block, _ right: Block) -> Block? {
        let a = blockLines(left).map(\.words)
        guard !a.isEmpty, a.allSatisfy({ $0.count == 1 && Self.hasListLabelShape($0[0].text) }) else { return nil }
        func top(_ line: [Word]) -> Int { line.map { $0.box[1] }.min() ?? 0 }
        let lines = right.paragraphs.joined().filter { !$0.isEmpty }
        guard lines.count >= a.count else { return nil }
        let height = max(1, (right.bottom - right.top) / lines.count)
        guard right.left - left.right < 6 * height else { return nil }
        var result = right
        for label in a {
            var placed = false
            search: for p in result.paragraphs.indices {
                for l in result.paragraphs[p].indices where !result.paragraphs[p][l].isEmpty {
                    let line = result.paragraphs[p][l]
                    guard abs(top(line) - top(label)) <= height / 2, let first = line.first, first.box[0] > label[0].box[0] else { continue }
                    result.paragraphs[p][l].insert(label[0], at: 0)
                    placed = true
                    break search
                }
            }
            guard placed else { return nil }
        }
        // The items' block keeps its left edge: the next label in the margin stands beside it.
        let y = min(left.top, right.top)
        result.box = [right.left, y, right.right - right.left, max(left.bottom, right.bottom) - y]
        return result
    }

    /// Two blocks side by side that are names signed side by side, each with its title under it
    /// (two to four lines each, line beside line, of words alone: no digit, no label), as one
    /// block of rows; nil when they are not.
    private func signedRows(_ left: Block, _ right: Block) -> Block? {
        let a = blockLines(left).map(\.words), b = blockLines(right).map(\.words)
        guard a.count == b.count, (2...4).contains(a.count),
              (a + b).allSatisfy({ $0.count <= 4 && Self.isWordsAlone($0) })
        else { return nil }
        func top(_ line: [Word]) -> Int { line.map { $0.box[1] }.min() ?? 0 }
        let height = max(1, (left.bottom - left.top) / a.count)
        guard zip(a, b).allSatisfy({ abs(top($0) - top($1)) <= height / 2 }) else { return nil }
        let y = min(left.top, right.top)
        var block = Block(box: [left.left, y, right.right - left.left, max(left.bottom, right.bottom) - y])
        block.paragraphs = [zip(a, b).map { $0 + $1 }]
        return block
    }

    /// A stretch of a block's lines read as two columns side by side: `lines` indexes the block's
    /// lines (paragraphs joined), `gutter` is the empty band between the columns.
    struct ColumnRun: Equatable {
        var lines: ClosedRange<Int>
        var gutter: ClosedRange<Int>
    }

    /// A block of `lines` (each with the index of its paragraph: lines of one paragraph stay one),
    /// in `box`, or in the box round their words.
    static func block(of lines: ArraySlice<(paragraph: Int, words: [Word])>, box: [Int]? = nil) -> Block {
        let words = lines.flatMap(\.words)
        let left = words.map { $0.box[0] }.min() ?? 0, right = words.map { $0.box[0] + $0.box[2] }.max() ?? 0
        let top = words.map { $0.box[1] }.min() ?? 0, bottom = words.map { $0.box[1] + $0.box[3] }.max() ?? 0
        var block = Block(box: box ?? [left, top, right - left, bottom - top])
        block.paragraphs = []
        var last: Int?
        for line in lines {
            if line.paragraph != last { block.paragraphs.append([]) }
            block.paragraphs[block.paragraphs.count - 1].append(line.words)
            last = line.paragraph
        }
        return block
    }

    /// The block's lines, paragraphs joined, each with the index of its paragraph.
    func blockLines(_ block: Block) -> [(paragraph: Int, words: [Word])] {
        block.paragraphs.enumerated().flatMap { index, lines in lines.filter { !$0.isEmpty }.map { (index, $0) } }
    }

    /// Where a block's lines stand in two columns side by side (a letterhead: the name on the
    /// left, the address on the right; an address beside a reference block).
    ///
    /// Only at a real gutter: consecutive lines that each have one wide gap across the same empty
    /// band, at least a tenth of the page wide, which no word of those lines crosses, with the
    /// right-hand column starting at the same place on every line. A line never splits after a label ending in ":" (a "Dato:   1.2.2025"
    /// line keeps its value). At least two lines must split (one, in the letterhead band). Lines
    /// with several wide gaps are table rows, and then nothing in the block is split. Full-width
    /// lines with a wide space here and there (justified or typewritten text, where a few spaces
    /// can line up over several lines) leave no such band, and stay whole. Rows that are read
    /// across as printed stay whole too: a grid of labelled fields (a form), and names signed
    /// side by side under the letterhead (up to four split lines one after another, none of more
    /// than eight words, no digit or label among them).
    func columnRuns(_ block: Block) -> [ColumnRun] {
        let wide = Double(pageWidth) * 0.05
        let lines = blockLines(block).map(\.words)
        var gaps: [(left: Double, right: Double)?] = []
        /// Split lines with a label at the start of both parts ("Navn: …   Fødselsnr.: …").
        var formRows = Set<Int>()
        for line in lines {
            var wideGaps: [(left: Double, right: Double, labelled: Bool)] = []
            for (a, b) in zip(line, line.dropFirst()) {
                let left = Double(a.box[0] + a.box[2]), right = Double(b.box[0])
                if right - left > wide { wideGaps.append((left, right, a.text.hasSuffix(":"))) }
            }
            if wideGaps.count > 1 { return [] }
            gaps.append(wideGaps.first.flatMap { $0.labelled ? nil : ($0.left, $0.right) })
            if let gap = wideGaps.first, let cut = line.firstIndex(where: { Double($0.box[0]) >= gap.right }),
               Self.isLabelled(line[..<cut]), Self.isLabelled(line[cut...]) {
                formRows.insert(gaps.count - 1)
            }
        }
        let needed = isInLetterhead(block) ? 1 : 2
        let narrowest = 2 * wide, alignment = Double(pageWidth) * 0.02
        /// The gutter narrowed to leave room for the line's words, each on the side of the gutter
        /// it is nearer to; nil when too little of it is left (the line runs across it).
        func fit(_ line: [Word], _ gutter: (left: Double, right: Double)) -> (left: Double, right: Double)? {
            var fitted = gutter
            for word in line {
                let left = Double(word.box[0]), right = Double(word.box[0] + word.box[2])
                if right - gutter.left < gutter.right - left {
                    fitted.left = max(fitted.left, right)
                } else {
                    fitted.right = min(fitted.right, left)
                }
            }
            return fitted.right - fitted.left >= narrowest ? fitted : nil
        }
        var runs: [ColumnRun] = []
        if gaps.allSatisfy({ $0 == nil }), lines.count >= 2 {
            // No line has words on both sides, but the lines may still stand in two columns (Tesseract
            // took a letterhead's left and right lines, a little apart in height, as one block):
            // lines starting left of an empty band and lines starting right of it.
            // Each line's extent, and its height on the page: lines on the right that stand wholly
            // above those on the left (a date at the right margin over the recipient's address), or
            // wholly between two of them and beside none, are read top to bottom, not as a second
            // column, unless a block above began that column.
            let extents = lines.map { line -> (left: Double, right: Double, top: Int, bottom: Int) in
                (left: Double(line.map { $0.box[0] }.min() ?? 0), right: Double(line.map { $0.box[0] + $0.box[2] }.max() ?? 0),
                 top: line.map { $0.box[1] }.min() ?? 0, bottom: line.map { $0.box[1] + $0.box[3] }.max() ?? 0)
            }.sorted { $0.left < $1.left }
            for k in 1..<extents.count {
                let gutter = (left: extents[..<k].map(\.right).max() ?? 0, right: extents[k...].map(\.left).min() ?? 0)
                if gutter.right - gutter.left >= narrowest {
                    let leftSide = extents[..<k], rightSide = extents[k...]
                    let rightAbove = (rightSide.map(\.bottom).max() ?? 0) <= (leftSide.map(\.top).min() ?? 0)
                    // Lines on the right that stand between lines on the left, none beside any of
                    // them (a date at the right margin under the clinic's name and over the
                    // references): one line under the other, read top to bottom.
                    let rightTop = rightSide.map(\.top).min() ?? 0, rightBottom = rightSide.map(\.bottom).max() ?? 0
                    let besideAny = rightSide.contains { r in
                        leftSide.contains { l in 2 * (min(r.bottom, l.bottom) - max(r.top, l.top)) > min(r.bottom - r.top, l.bottom - l.top) }
                    }
                    let between = !besideAny && leftSide.contains { $0.bottom <= rightTop } && leftSide.contains { $0.top >= rightBottom }
                    // A right column that a block above began (a letterhead's telephone number on the
                    // name's line, the organisation number under it) goes on here, however it stands.
                    let rightStart = rightSide.map(\.left).min() ?? 0
                    let begunAbove = blocks.contains { other in
                        other.top < block.top && blockLines(other).contains { line in
                            line.words.contains { abs(Double($0.box[0]) - rightStart) <= 2 * alignment }
                        }
                    }
                    guard !(rightAbove || between) || begunAbove else { return [] }
                    return [ColumnRun(lines: 0...(lines.count - 1),
                                      gutter: Int(gutter.left.rounded(.up))...Int(gutter.right.rounded(.down)))]
                }
            }
            return []
        }
        // The open run: its first and last split line, its gutter, where its right column starts.
        var open: (first: Int, last: Int, gutter: (left: Double, right: Double), starts: [Double], splits: Int)?
        func top(_ line: [Word]) -> Int { line.map { $0.box[1] }.min() ?? 0 }
        func height(_ line: [Word]) -> Int { (line.map { $0.box[1] + $0.box[3] }.max() ?? 0) - top(line) }
        /// Closes the open run before line `end`: one-sided lines that follow its last split line
        /// at the same spacing (the rest of an address) belong to it; a line after a wider space
        /// (the letter's heading) does not.
        func close(before end: Int) {
            guard var run = open else { return }
            open = nil
            let heights = (run.first...run.last).map { height(lines[$0]) }.sorted()
            let lineHeight = heights[heights.count / 2]
            while run.last + 1 < end, top(lines[run.last + 1]) - top(lines[run.last]) <= 2 * lineHeight {
                run.last += 1
            }
            let starts = run.starts
            // A grid of labelled fields (a form) is read row by row, as it is filled in.
            let splitLines = (run.first...run.last).filter { gaps[$0] != nil }
            guard !splitLines.allSatisfy(formRows.contains) else { return }
            // Names signed side by side under a letter, each with its title under it, are read
            // row by row, as they are printed: up to four split lines one after another, below
            // the letterhead's fifth of the page or under a closing greeting (high on a second
            // page), of words alone (``isWordsAlone(_:)``); an address beside a reference or a
            // date has a digit or a label. ("Med vennlig hilsen" above them is one-sided, and no
            // part of the rows.)
            let signatures = splitLines.count <= 4
                && splitLines.last.map { $0 - (splitLines.first ?? 0) + 1 == splitLines.count } == true
                && (top(lines[run.first]) >= pageHeight / 5 || splitLines.first.map { greetingAbove(top(lines[$0])) } == true)
                && splitLines.allSatisfy { lines[$0].count <= 8 && Self.isWordsAlone(lines[$0]) }
            guard !signatures else { return }
            guard run.splits >= needed, run.gutter.right - run.gutter.left >= narrowest,
                  let low = starts.min(), let high = starts.max(), high - low <= alignment else { return }
            runs.append(ColumnRun(lines: run.first...run.last,
                                  gutter: Int(run.gutter.left.rounded(.up))...Int(run.gutter.right.rounded(.down))))
        }
        for (index, line) in lines.enumerated() {
            if let gap = gaps[index] {
                if var run = open {
                    if let gutter = fit(line, run.gutter) {
                        run.gutter = gutter
                        run.last = index
                        run.starts.append(gap.right)
                        run.splits += 1
                        open = run
                        continue
                    }
                    close(before: index)
                }
                // One-sided lines just above at the same spacing (a letterhead's first line on one
                // side only) belong to the run too.
                var first = index, gutter = gap
                let floor = runs.last.map { $0.lines.upperBound + 1 } ?? 0
                while first > floor, gaps[first - 1] == nil,
                      top(lines[first]) - top(lines[first - 1]) <= 2 * height(lines[first]),
                      let fitted = fit(lines[first - 1], gutter) {
                    first -= 1
                    gutter = fitted
                }
                open = (first, index, gutter, [gap.right], 1)
            } else if var run = open, let gutter = fit(line, run.gutter) {
                // A line on one side only (a short address line) may stand between split lines.
                run.gutter = gutter
                open = run
            } else {
                close(before: index)
            }
        }
        close(before: lines.count)
        return runs
    }

    private func isInLetterhead(_ block: Block) -> Bool { block.top < pageHeight / 5 }

    /// Whether a line, or a part of one, begins with a label ("Navn:", "Vår ref.:") in its first
    /// two words.
    private static func isLabelled(_ words: some Collection<Word>) -> Bool { words.prefix(2).contains { $0.text.hasSuffix(":") } }

    /// Whether a line is words alone, as a name or a title signed under a letter is: no digit, no
    /// label.
    private static func isWordsAlone(_ line: [Word]) -> Bool {
        line.allSatisfy { !$0.text.contains(where: \.isNumber) && !$0.text.hasSuffix(":") }
    }

    /// Whether a letter's closing greeting ("Med vennlig hilsen", "Helsing") stands on the page
    /// above `y`: names signed stand under one, high on a second page too; a letterhead never does.
    private func greetingAbove(_ y: Int) -> Bool {
        blocks.contains { block in
            block.paragraphs.joined().contains { line in
                guard let last = line.last?.text.lowercased().trimmingCharacters(in: .punctuationCharacters),
                      let bottom = line.map({ $0.box[1] + $0.box[3] }).max() else { return false }
                return line.count <= 4 && bottom <= y && ["hilsen", "helsing", "hilsener"].contains(last)
            }
        }
    }

    /// Blocks with column runs are cut into pieces: the lines before a run, the run's left column,
    /// its right column, the lines after it. Neighbouring letterhead blocks that are each one run
    /// with overlapping gutters are read as one two-column letterhead.
    func splittingColumns(_ blocks: [Block]) -> [Block] {
        var result: [Block] = []
        var group: [Block] = []
        var groupGutter = 0...0
        func piece(_ lines: [(paragraph: Int, words: [Word])], box: [Int]) -> Block? {
            lines.isEmpty ? nil : Self.block(of: lines[...], box: box)
        }
        func columns(_ lines: [(paragraph: Int, words: [Word])], cut: Int, box: [Int]) -> [Block] {
            let left = lines.map { ($0.paragraph, $0.words.filter { $0.box[0] < cut }) }.filter { !$0.1.isEmpty }
            let right = lines.map { ($0.paragraph, $0.words.filter { $0.box[0] >= cut }) }.filter { !$0.1.isEmpty }
            return [piece(left.map { (0, $0.1) }, box: [box[0], box[1], cut - box[0], box[3]]),
                    piece(right.map { (0, $0.1) }, box: [cut, box[1], box[0] + box[2] - cut, box[3]])].compactMap { $0 }
        }
        func flush() {
            guard !group.isEmpty else { return }
            let lines = group.flatMap { blockLines($0) }
            let top = group.map(\.top).min() ?? 0, bottom = group.map(\.bottom).max() ?? 0
            let left = group.map(\.left).min() ?? 0, right = group.map(\.right).max() ?? 0
            result += columns(lines, cut: (groupGutter.lowerBound + groupGutter.upperBound) / 2,
                              box: [left, top, right - left, bottom - top])
            group = []
        }
        /// Whether `block` continues one column of the letterhead group: it stands wholly on one
        /// side of the gutter, right under the last line on that side at the spacing of lines
        /// (the sender's address under the name, beside the telephone number that Tesseract read
        /// on the name's line).
        func continuesGroup(_ block: Block) -> Bool {
            guard isInLetterhead(block), !group.isEmpty else { return false }
            let words = blockLines(block).flatMap(\.words)
            let onLeft = words.allSatisfy { $0.box[0] + $0.box[2] <= groupGutter.upperBound }
            guard !words.isEmpty, onLeft || words.allSatisfy({ $0.box[0] >= groupGutter.lowerBound }) else { return false }
            func bottom(_ line: [Word]) -> Int { line.map { $0.box[1] + $0.box[3] }.max() ?? 0 }
            let cut = (groupGutter.lowerBound + groupGutter.upperBound) / 2
            let side = group.flatMap { blockLines($0) }.map { $0.words.filter { ($0.box[0] < cut) == onLeft } }
            guard let last = side.filter({ !$0.isEmpty }).max(by: { bottom($0) < bottom($1) }) else { return false }
            let lineHeight = bottom(last) - (last.map { $0.box[1] }.min() ?? 0)
            return block.top >= bottom(last) - lineHeight / 2 && block.top - bottom(last) <= lineHeight * 3 / 2
        }
        for block in blocks {
            let runs = columnRuns(block)
            let lines = blockLines(block)
            if runs.isEmpty, continuesGroup(block) {
                group.append(block)
                continue
            }
            if runs.count == 1, let run = runs.first, run.lines == 0...(lines.count - 1), isInLetterhead(block) {
                // A block after a blank band three of its lines tall or more (the recipient's
                // address and the references beside it, under the letterhead) is a group of its
                // own: each column of the letterhead is read before the next band.
                let lineHeight = (block.bottom - block.top) / max(1, lines.count)
                let apart = (group.map(\.bottom).max()).map { block.top - $0 > 3 * lineHeight } ?? false
                if !group.isEmpty && (!run.gutter.overlaps(groupGutter) || apart) { flush() }
                groupGutter = group.isEmpty ? run.gutter
                    : max(run.gutter.lowerBound, groupGutter.lowerBound)...min(run.gutter.upperBound, groupGutter.upperBound)
                group.append(block)
                continue
            }
            flush()
            guard !runs.isEmpty else {
                result.append(block)
                continue
            }
            var next = 0
            for run in runs {
                if let before = piece(Array(lines[next..<run.lines.lowerBound]), box: block.box) { result.append(before) }
                result += columns(Array(lines[run.lines]), cut: (run.gutter.lowerBound + run.gutter.upperBound) / 2, box: block.box)
                next = run.lines.upperBound + 1
            }
            if let after = piece(Array(lines[next...]), box: block.box) { result.append(after) }
        }
        flush()
        return result
    }
}
