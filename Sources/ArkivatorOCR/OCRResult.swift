/// One recognised word.
public struct RecognizedWord: Sendable, Equatable, Codable {
    public var text: String
    /// Tesseract's confidence, 0…1.
    public var confidence: Double
    /// Where the word stands in the page text, in Unicode scalars (Python string indices).
    public var start: Int
    public var length: Int
    /// The word's box in the cleaned page: x, y, width, height in pixels.
    public var box: [Int]
}

/// What OCR read on one page.
public struct OCRPage: Sendable, Equatable {
    /// The text: words separated by spaces, lines by a newline, paragraphs by a blank line.
    public var text: String
    public var words: [RecognizedWord]
    /// Mean word confidence (0…1), weighted by word length; 0 when there are no words.
    public var meanConfidence: Double
    /// True when the page holds no readable text (a blank page, a photo of a table top).
    public var noText: Bool
    /// Lines left out of `text` because they are not text: every mark read with low confidence
    /// and no word among them (a signature, a stamp's ring, a smudge).
    public var droppedLines = 0

    public init(text: String, words: [RecognizedWord], meanConfidence: Double, noText: Bool) {
        self.text = text
        self.words = words
        self.meanConfidence = meanConfidence
        self.noText = noText
    }

    /// The text's lines with the box around their words (x, y, width, height), for a text layer.
    public var lines: [(text: String, box: [Int])] {
        var result: [(text: String, box: [Int])] = []
        var offset = 0
        var wordIndex = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let length = line.unicodeScalars.count
            var box: [Int]?
            while wordIndex < words.count, words[wordIndex].start < offset + length {
                let b = words[wordIndex].box
                if let current = box {
                    let right = max(current[0] + current[2], b[0] + b[2]), bottom = max(current[1] + current[3], b[1] + b[3])
                    let left = min(current[0], b[0]), top = min(current[1], b[1])
                    box = [left, top, right - left, bottom - top]
                } else {
                    box = b
                }
                wordIndex += 1
            }
            if let box, length > 0 { result.append((String(line), box)) }
            offset += length + 1
        }
        return result
    }

    /// Words below `threshold` confidence.
    public func lowConfidenceWords(below threshold: Double = 0.7) -> [RecognizedWord] {
        words.filter { $0.confidence < threshold }
    }

    /// A page with no text.
    public static let empty = OCRPage(text: "", words: [], meanConfidence: 0, noText: true)
}

/// Words grouped as Tesseract found them (blocks → paragraphs → lines), put into the order a
/// person reads a letter, with scribbles dropped.
struct PageLayout {
    struct Word {
        var text: String
        var confidence: Double
        var box: [Int]
    }

    struct Block {
        var box: [Int]
        var paragraphs: [[[Word]]] = [[[]]]
        var left: Int { box[0] }
        var right: Int { box[0] + box[2] }
        var top: Int { box[1] }
        var bottom: Int { box[1] + box[3] }
    }

    private(set) var blocks: [Block] = []
    /// Width of the page in pixels (for gaps measured as a share of it).
    var pageWidth = 2480
    var pageHeight = 3508

    /// A line whose words are all below this confidence, and that reads as no words, is a
    /// signature, logo or smudge, not text.
    static let scribbleConfidence = 0.5

    /// Whether a line read with low confidence is a scribble rather than faint text: no mark on it
    /// reads as a word, or less than half of its long marks (four letters or digits or more) do. A
    /// word here has four letters or more, a share of vowels that Norwegian words have (a quarter
    /// or more) and no capital after a small letter, or four digits or more. "SVANT", "SIWVNSKrE"
    /// and "~,;" are what OCR makes of a signature or a stamp's ring; "trygdesjef" under a
    /// signature and "Oslo" in an address are faint text, and stay.
    static func isScribble(_ line: [Word]) -> Bool {
        guard line.allSatisfy({ $0.confidence < scribbleConfidence }) else { return false }
        let vowels = Set("aeiouyæøåéèAEIOUYÆØÅÉÈ".unicodeScalars)
        var long = 0, words = 0
        for word in line {
            let scalars = Array(word.text.unicodeScalars)
            let letters = scalars.filter(\.properties.isAlphabetic)
            let digits = scalars.filter { ("0"..."9").contains($0) }
            guard letters.count + digits.count >= 4 else { continue }
            long += 1
            guard (letters.count + digits.count) * 10 >= scalars.count * 7 else { continue }
            let capitalAfterSmall = zip(letters, letters.dropFirst()).contains {
                $0.0.properties.isLowercase && $0.1.properties.isUppercase
            }
            if digits.count >= 4
                || (letters.count >= 4 && !capitalAfterSmall && letters.filter(vowels.contains).count * 4 >= letters.count) {
                words += 1
            }
        }
        return words == 0 || words * 2 < long
    }

    /// Words of one line, between wide gaps, that Tesseract read with low confidence while the
    /// rest of the line read well: where it joins a line of one column with a line of the next
    /// that stands a little higher or lower (a date beside the address), it cuts the second to
    /// the first's height and garbles it. Read again on their own, they come out whole.
    struct Fragment: Equatable {
        var block: Int, paragraph: Int, line: Int
        var words: Range<Int>
        /// The words' box, widened by half a line on every side (x, y, width, height).
        var box: [Int]
        var confidence: Double
    }

    /// The fragments of `Fragment` on the page, at most `limit`.
    func garbledFragments(limit: Int = 6) -> [Fragment] {
        var found: [Fragment] = []
        for (b, block) in blocks.enumerated() {
            for (p, paragraph) in block.paragraphs.enumerated() {
                for (l, line) in paragraph.enumerated() where line.count >= 2 {
                    let height = line.map { $0.box[3] }.sorted()[line.count / 2]
                    // Pieces of the line between gaps wider than two line heights.
                    var pieces: [Range<Int>] = []
                    var start = 0
                    for i in 1..<line.count where line[i].box[0] - (line[i - 1].box[0] + line[i - 1].box[2]) > 2 * height {
                        pieces.append(start..<i)
                        start = i
                    }
                    pieces.append(start..<line.count)
                    guard pieces.count > 1 else { continue }
                    func confidence(_ r: Range<Int>) -> Double { Self.meanConfidence(line[r]) }
                    guard pieces.contains(where: { confidence($0) >= 0.7 }) else { continue }
                    // A mark or two in the margin ("0", "*") is no line of text.
                    for piece in pieces where confidence(piece) < Self.scribbleConfidence && Self.alphanumerics(line[piece]) >= 5 {
                        let left = line[piece].map { $0.box[0] }.min() ?? 0, top = line[piece].map { $0.box[1] }.min() ?? 0
                        let right = line[piece].map { $0.box[0] + $0.box[2] }.max() ?? 0
                        let bottom = line[piece].map { $0.box[1] + $0.box[3] }.max() ?? 0
                        let x = max(0, left - height / 2), y = max(0, top - height / 2)
                        let box = [x, y, min(pageWidth, right + height / 2) - x, min(pageHeight, bottom + height / 2) - y]
                        found.append(Fragment(block: b, paragraph: p, line: l, words: piece, box: box, confidence: confidence(piece)))
                        if found.count == limit { return found }
                    }
                }
            }
        }
        return found
    }

    /// Every word on the page, in Tesseract's order.
    var words: [Word] { blocks.flatMap { $0.paragraphs.joined().joined() } }

    /// The words' confidence, each weighted by its length (0 for no words).
    static func meanConfidence(_ words: some Collection<Word>) -> Double {
        let characters = words.reduce(0) { $0 + $1.text.count }
        return words.reduce(0) { $0 + $1.confidence * Double($1.text.count) } / Double(max(1, characters))
    }

    /// How many letters and digits `words` hold.
    static func alphanumerics(_ words: some Collection<Word>) -> Int {
        words.reduce(0) { $0 + $1.text.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.count }
    }

    /// The fragment's words replaced by `words` (a second reading of it).
    mutating func replace(_ fragment: Fragment, with words: [Word]) {
        blocks[fragment.block].paragraphs[fragment.paragraph][fragment.line].replaceSubrange(fragment.words, with: words)
    }

    mutating func startBlock(box: [Int]) { blocks.append(Block(box: box)) }
    mutating func startParagraph() { blocks[blocks.count - 1].paragraphs.append([[]]) }
    mutating func startLine() {
        let p = blocks[blocks.count - 1].paragraphs.count - 1
        blocks[blocks.count - 1].paragraphs[p].append([])
    }
    mutating func add(_ word: Word) {
        let trimmed = word.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return }
        let b = blocks.count - 1, p = blocks[b].paragraphs.count - 1, l = blocks[b].paragraphs[p].count - 1
        blocks[b].paragraphs[p][l].append(Word(text: trimmed, confidence: word.confidence, box: word.box))
    }

    /// Blocks in reading order: top to bottom in bands; within a band of blocks side by side (a
    /// letterhead's two columns, an address beside a reference block), column by column, left
    /// to right, each column top to bottom.
    ///
    /// A block joins the band above it when it starts before the band ends and stands beside one
    /// of the band's blocks, or, once the band has two columns, when it lies right under a block
    /// of its own column at the spacing of lines (the sender's next lines, under the first and
    /// beside the telephone numbers).
    func orderedBlocks() -> [Block] {
        let sorted = blocks.sorted { ($0.top, $0.left) < ($1.top, $1.left) }
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
        return bands.flatMap { band -> [Block] in
            // Columns: blocks that overlap horizontally, through any chain of them.
            var columns: [[Block]] = []
            for block in band.sorted(by: { $0.left < $1.left }) {
                if let index = columns.firstIndex(where: { $0.contains { !beside($0, block) } }) {
                    columns[index].append(block)
                } else {
                    columns.append([block])
                }
            }
            return columns.flatMap { $0.sorted { $0.top < $1.top } }
        }
    }

    /// A stretch of a block's lines read as two columns side by side: `lines` indexes the block's
    /// lines (paragraphs joined), `gutter` is the empty band between the columns.
    struct ColumnRun: Equatable {
        var lines: ClosedRange<Int>
        var gutter: ClosedRange<Int>
    }

    /// The block's lines, paragraphs joined, each with the index of its paragraph.
    private func blockLines(_ block: Block) -> [(paragraph: Int, words: [Word])] {
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
    /// can line up over several lines) leave no such band, and stay whole.
    func columnRuns(_ block: Block) -> [ColumnRun] {
        let wide = Double(pageWidth) * 0.05
        let lines = blockLines(block).map(\.words)
        var gaps: [(left: Double, right: Double)?] = []
        /// Split lines with a label at the start of both parts ("Navn: …   Fødselsnr.: …").
        var formRows = Set<Int>()
        func labelled(_ words: ArraySlice<Word>) -> Bool { words.prefix(2).contains { $0.text.hasSuffix(":") } }
        for line in lines {
            var wideGaps: [(left: Double, right: Double, labelled: Bool)] = []
            for (a, b) in zip(line, line.dropFirst()) {
                let left = Double(a.box[0] + a.box[2]), right = Double(b.box[0])
                if right - left > wide { wideGaps.append((left, right, a.text.hasSuffix(":"))) }
            }
            if wideGaps.count > 1 { return [] }
            gaps.append(wideGaps.first.flatMap { $0.labelled ? nil : ($0.left, $0.right) })
            if let gap = wideGaps.first, let cut = line.firstIndex(where: { Double($0.box[0]) >= gap.right }),
               labelled(line[..<cut]), labelled(line[cut...]) {
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
            let extents = lines.map { line in
                (left: Double(line.map { $0.box[0] }.min() ?? 0), right: Double(line.map { $0.box[0] + $0.box[2] }.max() ?? 0))
            }.sorted { $0.left < $1.left }
            for k in 1..<extents.count {
                let gutter = (left: extents[..<k].map(\.right).max() ?? 0, right: extents[k...].map(\.left).min() ?? 0)
                if gutter.right - gutter.left >= narrowest {
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

    /// Blocks with column runs are cut into pieces: the lines before a run, the run's left column,
    /// its right column, the lines after it. Neighbouring letterhead blocks that are each one run
    /// with overlapping gutters are read as one two-column letterhead.
    func splittingColumns(_ blocks: [Block]) -> [Block] {
        var result: [Block] = []
        var group: [Block] = []
        var groupGutter = 0...0
        func piece(_ lines: [(paragraph: Int, words: [Word])], box: [Int]) -> Block? {
            guard !lines.isEmpty else { return nil }
            var block = Block(box: box)
            block.paragraphs = []
            var last: Int?
            for line in lines {
                if line.paragraph != last { block.paragraphs.append([]) }
                block.paragraphs[block.paragraphs.count - 1].append(line.words)
                last = line.paragraph
            }
            return block
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
                if !group.isEmpty && !run.gutter.overlaps(groupGutter) { flush() }
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

    func page() -> OCRPage {
        var items: [(text: String, confidence: Double, box: [Int], breakBefore: LayoutBreak)] = []
        var dropped = 0
        for block in splittingColumns(orderedBlocks()) {
            var first = true
            for paragraph in block.paragraphs {
                var firstLine = true
                for var line in paragraph where !line.isEmpty {
                    if Self.isScribble(line) {
                        dropped += 1
                        continue
                    }
                    Typography.normalizeDashes(&line)
                    for (index, word) in line.enumerated() {
                        let layoutBreak: LayoutBreak = index > 0 ? .none : (first || firstLine ? .paragraph : .line)
                        items.append((word.text, word.confidence, word.box, layoutBreak))
                        first = false
                        firstLine = false
                    }
                }
            }
        }
        var page = OCRPage.assemble(items)
        page.droppedLines = dropped
        return page
    }
}

extension OCRPage {
    /// Builds a page from words in reading order with their layout breaks.
    ///
    /// A page is `noText` unless it has at least three words of two or more letters or digits read
    /// with confidence 0.6 or better; such pages get empty text, so noise never reaches the archive.
    /// `typography` puts right what OCR models get wrong (see ``Typography``); a text layer's
    /// words are taken exactly as they are.
    static func assemble(_ items: [(text: String, confidence: Double, box: [Int], breakBefore: LayoutBreak)],
                         typography: Bool = true) -> OCRPage {
        var text = ""
        var scalars = 0
        var words: [RecognizedWord] = []
        var weighted = 0.0
        var weights = 0.0
        var meaningful = 0
        for item in items {
            let trimmed = item.text.trimmingCharacters(in: .whitespacesAndNewlines)
            // A section number ("§ 8-2") keeps its hyphen: it is no range.
            let section = words.last?.text.hasSuffix("§") ?? false
            let word = typography && !section ? Typography.normalized(trimmed) : trimmed
            guard !word.isEmpty else { continue }
            if !words.isEmpty {
                let separator: String = switch item.breakBefore {
                case .paragraph: "\n\n"
                case .line: "\n"
                case .none: " "
                }
                text += separator
                scalars += separator.unicodeScalars.count
            }
            let length = word.unicodeScalars.count
            words.append(RecognizedWord(text: word, confidence: item.confidence, start: scalars, length: length, box: item.box))
            text += word
            scalars += length
            weighted += item.confidence * Double(length)
            weights += Double(length)
            let alphanumerics = word.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.count
            if alphanumerics >= 2 && item.confidence >= 0.6 { meaningful += 1 }
        }
        guard meaningful >= 3 else { return .empty }
        return OCRPage(text: text, words: words, meanConfidence: weights > 0 ? weighted / weights : 0, noText: false)
    }
}

/// What comes before a word in the text.
enum LayoutBreak {
    case none
    case line
    case paragraph
}

import Foundation

/// Norwegian typography that OCR models get wrong in the same way every time.
enum Typography {
    /// A dash standing alone in a line is a bullet (at the start) or a tankestrek (between words):
    /// an en dash. Only between two numbers ("20 - 42") is it a plain hyphen.
    static func normalizeDashes(_ line: inout [PageLayout.Word]) {
        let startsWithDigit = { (word: PageLayout.Word) in word.text.unicodeScalars.first.map { ("0"..."9").contains($0) } ?? false }
        for index in line.indices where ["-", "–", "—", "--"].contains(line[index].text) {
            let betweenNumbers = index > 0 && index + 1 < line.count
                && startsWithDigit(line[index - 1]) && startsWithDigit(line[index + 1])
            line[index].text = betweenNumbers ? "-" : "–"
        }
    }

    /// A free-standing dash is a tankestrek, an en dash ("–"); Norwegian text does not use em dashes.
    /// A short number range ("1-2", "10-14") also takes an en dash. Dates, codes and
    /// hyphenated words keep their hyphens.
    static func normalized(_ word: String) -> String {
        let scalars = Array(word.unicodeScalars)
        guard let dash = scalars.firstIndex(where: { $0 == "-" }),
              scalars.filter({ $0 == "-" }).count == 1 else { return word }
        let isDigit = { (s: Unicode.Scalar) in ("0"..."9").contains(s) }
        let before = scalars[..<dash], after = scalars[(dash + 1)...]
        var number = Array(after)
        while let last = number.last, [",", ".", ")", ";", ":"].contains(last) { number.removeLast() }
        guard (1...3).contains(before.count), before.allSatisfy(isDigit),
              (1...3).contains(number.count), number.allSatisfy(isDigit) else { return word }
        return String(String.UnicodeScalarView(before)) + "–" + String(String.UnicodeScalarView(after))
    }
}
