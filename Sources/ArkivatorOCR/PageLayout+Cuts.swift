import Foundation

/// Blocks cut where Tesseract joined what the eye reads apart: a block that runs on below the
/// blocks beside it, and a heading typed in the margin beside its paragraph.
extension PageLayout {
    /// Blocks cut where they run on below the blocks beside them: a block whose line stands
    /// beside another block and whose next line starts below every block beside it, after a space
    /// of a line's height or more and twice the block's usual space, is two blocks there (a letterhead's name, and under it, after a
    /// space, the letter's reference lines, read by Tesseract as one block beside the sender's
    /// address; the references come after the address, as the eye reads them).
    func cuttingBelowNeighbours(_ blocks: [Block]) -> [Block] {
        func top(_ line: [Word]) -> Int { line.map { $0.box[1] }.min() ?? 0 }
        func bottom(_ line: [Word]) -> Int { line.map { $0.box[1] + $0.box[3] }.max() ?? 0 }
        return blocks.flatMap { block -> [Block] in
            let lines = blockLines(block)
            guard lines.count >= 2 else { return [block] }
            let neighbours = blocks.filter {
                ($0.right <= block.left || block.right <= $0.left) && $0.top < block.bottom && block.top < $0.bottom
            }
            guard let end = neighbours.map(\.bottom).max() else { return [block] }
            let heights = lines.map { bottom($0.words) - top($0.words) }.sorted()
            let lineHeight = heights[heights.count / 2]
            let gaps = (1..<lines.count).map { top(lines[$0].words) - bottom(lines[$0 - 1].words) }
            guard let cut = (1..<lines.count).first(where: { i in
                guard top(lines[i - 1].words) < end, top(lines[i].words) >= end, gaps[i - 1] >= lineHeight else { return false }
                // Wider than the block's other spaces between lines (typewriting spaced a line
                // apart throughout is one block).
                let others = gaps.enumerated().filter { $0.offset != i - 1 }.map(\.element).sorted()
                return others.isEmpty || gaps[i - 1] >= 2 * max(1, others[others.count / 2])
            }) else { return [block] }
            return [Self.block(of: lines[..<cut]), Self.block(of: lines[cut...])]
        }
    }
}

/// Side headings: a heading typed in the left margin, beside the text it heads.
extension PageLayout {
    /// Blocks of one or two lines that stand in the left margin beside a block of many lines
    /// (a heading typed beside its paragraph, "Næringsforbud.   Hidtil har …") are read where
    /// they stand: the tall block is cut before its first line that reaches below the heading's upper half, and the
    /// heading is read between the two parts, instead of before or after the whole block.
    func placingSideHeadings(_ blocks: [Block]) -> [Block] {
        var result = blocks
        func lines(_ block: Block) -> [(paragraph: Int, words: [Word])] { blockLines(block) }
        func top(_ line: [Word]) -> Int { line.map { $0.box[1] }.min() ?? 0 }
        func bottom(_ line: [Word]) -> Int { line.map { $0.box[1] + $0.box[3] }.max() ?? 0 }
        func block(_ part: ArraySlice<(paragraph: Int, words: [Word])>) -> Block? {
            part.isEmpty ? nil : Self.block(of: part)
        }
        var index = 0
        var moved: Set<[Int]> = []
        while index < result.count {
            let heading = result[index]
            let headingLines = lines(heading)
            guard (1...2).contains(headingLines.count) else { index += 1; continue }
            let lineHeight = headingLines.map { bottom($0.words) - top($0.words) }.max() ?? 0
            /// Whether `tall` is running text (two fifths of the page wide) right of the heading
            /// (a box may reach a little into it).
            func besideText(_ tall: Block) -> Bool {
                tall.right - tall.left >= pageWidth * 2 / 5 && heading.left < tall.left && heading.right <= tall.left + lineHeight
            }
            // The tall block beside it: many lines of running text, starting at least a line above
            // the heading and ending at least a line below it.
            guard let tallIndex = result.indices.first(where: { other in
                guard other != index else { return false }
                let tall = result[other]
                return lines(tall).count >= 6 && besideText(tall)
                    && tall.top < heading.top - lineHeight && tall.bottom > heading.bottom + lineHeight
            }) else {
                // Beside the first line of a paragraph of its own ("Anmeldelsespligt.   Jøder skal
                // senest …"): read just before that paragraph, wherever the blocks' order put it.
                // Each heading is moved once (two beside one paragraph stay in the order found).
                let place = [heading.left, heading.top, heading.right, heading.bottom]
                if !moved.contains(place), let first = result.indices.first(where: { other in
                    guard other != index else { return false }
                    let tall = result[other]
                    return lines(tall).count >= 2 && besideText(tall) && abs(tall.top - heading.top) <= lineHeight
                }), first != index + 1 {
                    moved.insert(place)
                    result.remove(at: index)
                    result.insert(heading, at: first > index ? first - 1 : first)
                    // The block now at the heading's old place is looked at next; one moved up
                    // past it, from the heading's new place on.
                    if first < index { index = first + 1 }
                    continue
                }
                index += 1
                continue
            }
            let tallLines = lines(result[tallIndex])
            guard let cut = tallLines.firstIndex(where: { bottom($0.words) > heading.top + lineHeight / 2 }), cut > 0,
                  let above = block(tallLines[..<cut]) else { index += 1; continue }
            let below = block(tallLines[cut...])
            var replacement = [above, heading]
            if let below { replacement.append(below) }
            // The heading leaves its own place and is read inside the tall block.
            var rest = result
            rest.remove(at: index)
            let target = tallIndex > index ? tallIndex - 1 : tallIndex
            rest.replaceSubrange(target...target, with: replacement)
            result = rest
            // Look again from the start: the tall block's lower part may have another heading beside it.
            index = 0
        }
        return result
    }
}
