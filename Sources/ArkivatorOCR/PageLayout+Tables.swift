import Foundation

/// Tables whose cells the reading lost.
///
/// A table printed with wide gaps between its columns (a lab result's analysis, result, unit and
/// range) may lose a column of short numbers in Tesseract's layout analysis, as too small to be
/// text, or come out as one block per column, each read top to bottom on its own. Read again as
/// one block, the rows come out across, with their numbers.
extension PageLayout {
    /// A table whose cells the reading lost: the blocks that hold it (one, or columns side by
    /// side) and the box round its rows (x, y, width, height).
    struct ColumnTable: Equatable {
        var blocks: [Int]
        var box: [Int]
    }

    /// Tables below the letterhead (the top fifth of the page) with print inside that no word of
    /// the reading covers, three letter-sized marks or more (``lostLines(marks:)`` counts marks
    /// alike): cells the reading left out. A table is a run of three rows or more one after
    /// another in one block (lines with a gap wider than two word heights: columns), or blocks side by side whose lines stand at the same heights, three rows or more
    /// (each column read as a block of its own); half its rows, or of one column's lines, hold a
    /// digit.
    func columnTables(marks: [[Int]]) -> [ColumnTable] {
        guard let height = wordHeight(), height >= 6 else { return [] }
        func lines(_ block: Block) -> [[Word]] { block.paragraphs.joined().filter { !$0.isEmpty } }
        func top(_ line: [Word]) -> Int { line.map { $0.box[1] }.min() ?? 0 }
        func bottom(_ line: [Word]) -> Int { line.map { $0.box[1] + $0.box[3] }.max() ?? 0 }
        let middle = Self.middle
        func isRow(_ line: [Word]) -> Bool {
            zip(line, line.dropFirst()).contains { $1.box[0] - ($0.box[0] + $0.box[2]) > 2 * height }
        }
        func numeric(_ lines: [[Word]]) -> Bool {
            2 * lines.filter { $0.contains { $0.text.contains(where: \.isNumber) } }.count >= lines.count
        }
        var found: [ColumnTable] = []
        // Rows in one block.
        for (index, block) in blocks.enumerated() {
            var run: [[Word]] = []
            for line in lines(block) + [[]] {
                if !line.isEmpty, isRow(line) {
                    run.append(line)
                    continue
                }
                if run.count >= 3, numeric(run) {
                    let y = run.map(top).min() ?? 0, end = run.map(bottom).max() ?? 0
                    found.append(ColumnTable(blocks: [index], box: [block.left, y, block.right - block.left, end - y]))
                }
                run = []
            }
        }
        // Columns read as blocks side by side.
        let candidates = blocks.indices.filter { lines(blocks[$0]).count >= 3 }
        let middles = Dictionary(uniqueKeysWithValues: candidates.map { ($0, lines(blocks[$0]).map(middle)) })
        func beside(_ a: Block, _ b: Block) -> Bool { a.right <= b.left || b.right <= a.left }
        func aligned(_ a: Int, _ b: Int) -> Bool {
            guard let ma = middles[a], let mb = middles[b] else { return false }
            return ma.filter { y in mb.contains { abs($0 - y) <= height / 2 } }.count >= 3
        }
        var parent = Dictionary(uniqueKeysWithValues: candidates.map { ($0, $0) })
        func root(_ i: Int) -> Int {
            var i = i
            while let p = parent[i], p != i { i = p }
            return i
        }
        for (n, a) in candidates.enumerated() {
            for b in candidates.dropFirst(n + 1) where beside(blocks[a], blocks[b]) && aligned(a, b) {
                parent[root(b)] = root(a)
            }
        }
        var groups: [Int: [Int]] = [:]
        for i in candidates { groups[root(i), default: []].append(i) }
        for group in groups.values where group.count >= 2 && group.contains(where: { numeric(lines(blocks[$0])) }) {
            let left = group.map { blocks[$0].left }.min() ?? 0, right = group.map { blocks[$0].right }.max() ?? 0
            let top = group.map { blocks[$0].top }.min() ?? 0, bottom = group.map { blocks[$0].bottom }.max() ?? 0
            // Any other block standing inside the table (a few of its cells read apart) is part of it.
            let inside = blocks.indices.filter { i in
                !group.contains(i) && {
                    let x = (blocks[i].left + blocks[i].right) / 2, y = (blocks[i].top + blocks[i].bottom) / 2
                    return x >= left && x <= right && y >= top && y <= bottom
                }()
            }
            let table = ColumnTable(blocks: (group + inside).sorted(), box: [left, top, right - left, bottom - top])
            // A block's rows already found stand for the table they are in.
            found.removeAll { $0.blocks.count == 1 && table.blocks.contains($0.blocks[0]) }
            found.append(table)
        }
        let covered = words.map(\.box)
        let h = Double(height)
        return found.filter { table in
            let (left, top, right, bottom) = (table.box[0], table.box[1], table.box[0] + table.box[2], table.box[1] + table.box[3])
            guard top >= pageHeight / 5 else { return false }
            let lost = marks.filter { m in
                Self.isLetterSized(m, height: h) && m[0] >= left && m[0] + m[2] <= right && m[1] >= top && m[1] + m[3] <= bottom
                    && !covered.contains { Self.touches(m, $0) }
            }
            return lost.count >= 3
        }.sorted { ($0.box[1], $0.box[0]) < ($1.box[1], $1.box[0]) }
    }

    /// The height of a line's middle: halfway between its words' highest top and lowest bottom.
    static func middle(_ line: [Word]) -> Int {
        ((line.map { $0.box[1] }.min() ?? 0) + (line.map { $0.box[1] + $0.box[3] }.max() ?? 0)) / 2
    }

    /// The lines of a table's blocks that are its rows: those whose middle lies in its box.
    func rows(of table: ColumnTable) -> [[Word]] {
        table.blocks.filter { blocks.indices.contains($0) }.flatMap { blocks[$0].paragraphs.joined() }
            .filter { table.holds($0) }
    }
}

extension PageLayout.ColumnTable {
    /// Whether a line is one of the table's rows: not empty, its middle within the box's height.
    func holds(_ line: [PageLayout.Word]) -> Bool {
        guard !line.isEmpty else { return false }
        let y = PageLayout.middle(line)
        return y >= box[1] && y <= box[1] + box[3]
    }
}
