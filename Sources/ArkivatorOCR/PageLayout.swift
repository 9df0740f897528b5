import Foundation

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
    /// Lines left out as pens' strokes (``dropPenStrokes(marks:height:)``), counted in the page's
    /// `droppedLines`.
    private(set) var penStrokeLines = 0
    /// Words left out as specks read as signs (``dropSpeckWords(marks:height:)``), kept among
    /// the page's marks.
    private(set) var speckWords: [Word] = []

    /// A line whose words are all below this confidence, and that reads as no words, is a
    /// signature, logo or smudge, not text.
    static let scribbleConfidence = 0.5

    /// Below this confidence, small print read on a line of larger letters is read again on its
    /// own (``garbledFragments(limit:)``). Read against the larger letters' height, it comes out
    /// wrong even with some confidence ("21 04 Tønsberg" at 0.85 for "3104 Tønsberg").
    static let joinedConfidence = 0.9

    /// Below this confidence, a short number alone on its line is read again
    /// (``garbledFragments(limit:)``).
    static let loneNumberConfidence = 0.9

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
    ///
    /// Small print beside a larger line (a letterhead's address beside its name) is joined the
    /// same way, two or three of its lines to the one line of the name, and read as one garbled
    /// word as tall as those lines together: read again as a block, its lines come out whole.
    struct Fragment: Equatable {
        var block: Int, paragraph: Int, line: Int
        var words: Range<Int>
        /// The words' box, widened by half a line on every side (x, y, width, height).
        var box: [Int]
        var confidence: Double
        /// From the top of the words to their bottom, unwidened: a second reading's words whose
        /// middle lies outside it belong to the lines above or below, read already.
        var span: ClosedRange<Int> = 0...0
        /// Lines of small print read as one (see ``stackedFragments(marks:)``): read again only
        /// as a block.
        var stacked = false
        /// A short piece found only for its digits ("5 mg"): a second reading replaces it only
        /// when it keeps its digits and their commas and points.
        var shortNumber = false
        /// Small print on a line of larger letters, or a piece standing a third of its height
        /// above or below the rest of its line (a line of the next column): its first reading
        /// was made at another line's height, and a second reading of it on its own replaces it
        /// when it reads as surely.
        var misplaced = false
    }

    /// The heights of `words` that hold a letter or digit, lowest first (of all of them when none
    /// does): a dash or a point is no measure of the print.
    static func printHeights(_ words: some Collection<Word>) -> [Int] {
        let lettered = words.filter { alphanumerics([$0]) > 0 }
        return (lettered.isEmpty ? Array(words) : lettered).map { $0.box[3] }.sorted()
    }

    /// Pieces of a line between gaps wider than two of its heights (its columns), or wider than
    /// two heights of small print beside larger letters (an address Tesseract put on the line of
    /// a letterhead's name): a word of two letters or digits or more, or a digit, at under two
    /// thirds of the line's height (a dash between words is none; a small letter alone may be
    /// no higher in large print, a digit is as high as a capital). Small print after larger
    /// letters is a piece of its own from half its height apart when it starts where a piece of a
    /// line just above or below it starts (`edges`: x and middle of such starts): it is a line of
    /// a column beside them, set closer to the name than two of its heights.
    static func pieces(_ line: [Word], edges: [(x: Int, y: Int)] = []) -> [Range<Int>] {
        guard !line.isEmpty else { return [] }
        let heights = printHeights(line)
        let height = heights[heights.count / 2]
        func smallPrint(_ word: Word) -> Int? {
            let signs = word.text.filter { $0.isLetter || $0.isNumber }
            return 3 * word.box[3] < 2 * height && (signs.count >= 2 || signs.allSatisfy(\.isNumber) && !signs.isEmpty) ? word.box[3] : nil
        }
        func startsColumn(_ word: Word, height: Int, bothSides: Bool = false) -> Bool {
            let middle = word.box[1] + word.box[3] / 2
            let starts = edges.filter { abs($0.x - word.box[0]) <= max(3, height / 4) && $0.y != middle && abs($0.y - middle) <= 3 * height }
            return bothSides ? starts.contains { $0.y < middle } && starts.contains { $0.y > middle } : !starts.isEmpty
        }
        var pieces: [Range<Int>] = []
        var start = 0
        for i in 1..<line.count {
            let gap = line[i].box[0] - (line[i - 1].box[0] + line[i - 1].box[2])
            let small = [smallPrint(line[i - 1]), smallPrint(line[i])].compactMap { $0 }.min()
            // A word after larger letters (the words before it on the line a third taller) that
            // starts where the column's lines above and below it start is a piece of that
            // column too, however tall Tesseract framed it ("20" for "2010" framed with the
            // descender above it, beside a letterhead's name).
            let before = printHeights(Array(line[start..<i]))
            let framed = 10 * before[(before.count - 1) / 2] >= 13 * line[i].box[3] && 2 * gap > line[i].box[3]
                && startsColumn(line[i], height: line[i].box[3], bothSides: true)
            let column = smallPrint(line[i - 1]) == nil && (smallPrint(line[i]).map { 2 * gap > $0 && startsColumn(line[i], height: $0) } == true || framed)
            guard gap > 2 * height || (small.map { gap > 2 * $0 } ?? false) || column else { continue }
            pieces.append(start..<i)
            start = i
        }
        pieces.append(start..<line.count)
        return pieces
    }

    /// Runs of words in a line that each stand twice as tall as the page's words or more while
    /// no letter-sized mark inside them is more than half their height, and whose marks stand in
    /// two rows or more, one above the other: two or three lines of
    /// small print that Tesseract joined to a larger line beside them and read as one, garbled
    /// or even with confidence ("1914 Grålum" for "Postboks 300" over "1714 Grålum"). A word
    /// in large letters is as tall as its own letters, and stays.
    func stackedFragments(marks: [[Int]], limit: Int = 4) -> [Fragment] {
        guard let textHeight = wordHeight() else { return [] }
        func stacked(_ word: Word) -> Bool {
            let (left, top, width, height) = (word.box[0], word.box[1], word.box[2], word.box[3])
            guard height >= 2 * textHeight else { return false }
            let inside = marks.filter { m in
                let (x, y) = (m[0] + m[2] / 2, m[1] + m[3] / 2)
                return x >= left && x <= left + width && y >= top && y <= top + height && m[3] >= 5 && m[2] <= height
            }
            guard inside.count >= 6, let tallest = inside.map({ $0[3] }).max(), 2 * tallest <= height else { return false }
            // Two rows of three marks or more, one above the other: lines, not a word with a
            // mark or a figure written above it.
            var rows: [(middle: Int, count: Int)] = []
            for m in inside.sorted(by: { $0[1] + $0[3] / 2 < $1[1] + $1[3] / 2 }) {
                let middle = m[1] + m[3] / 2
                if let last = rows.last, middle - last.middle <= tallest / 2 {
                    rows[rows.count - 1].count += 1
                } else {
                    rows.append((middle, 1))
                }
            }
            return rows.filter { $0.count >= 3 }.count >= 2
        }
        var found: [Fragment] = []
        for (b, block) in blocks.enumerated() {
            for (p, paragraph) in block.paragraphs.enumerated() {
                for (l, line) in paragraph.enumerated() {
                    var index = 0
                    while index < line.count {
                        guard stacked(line[index]) else { index += 1; continue }
                        var end = index + 1
                        while end < line.count, stacked(line[end]) { end += 1 }
                        let words = line[index..<end]
                        let left = words.map { $0.box[0] }.min() ?? 0, top = words.map { $0.box[1] }.min() ?? 0
                        let right = words.map { $0.box[0] + $0.box[2] }.max() ?? 0
                        let bottom = words.map { $0.box[1] + $0.box[3] }.max() ?? 0
                        let pad = textHeight / 2
                        let x = max(0, left - pad), y = max(0, top - pad)
                        let box = [x, y, min(pageWidth, right + pad) - x, min(pageHeight, bottom + pad) - y]
                        found.append(Fragment(block: b, paragraph: p, line: l, words: index..<end, box: box,
                                              confidence: Self.meanConfidence(words), span: top...bottom, stacked: true))
                        if found.count == limit { return found }
                        index = end
                    }
                }
            }
        }
        return found
    }

    /// Whether `lines`, a stacked fragment (``stackedFragments(marks:limit:)``) read again as a
    /// block, stand for the words it held (`read`, read with `confidence`): two lines or more,
    /// five letters or digits or more, read as well as the words they stand for (0.75 will do),
    /// and holding half as many letters and digits again (two lines where one was read, not one
    /// word and a mark by it), or more in two lines or more that each read surely (0.9) and hold
    /// three letters or digits ("Kjøita 16" over "4630 Kristiansand", read at first as "14820
    /// Kristiansand": a word of each line).
    static func readsAsStackedLines(_ lines: [[Word]], for read: some Collection<Word>, confidence: Double) -> Bool {
        let words = lines.flatMap { $0 }
        let (now, was) = (alphanumerics(words), alphanumerics(read))
        let sure = lines.filter { alphanumerics($0) >= 3 && meanConfidence($0) >= 0.9 }.count
        return lines.count >= 2 && now >= 5 && (2 * now >= 3 * was || now > was && sure >= 2)
            && meanConfidence(words) >= min(0.75, confidence)
    }

    /// The fragments of `Fragment` on the page, at most `limit`.
    func garbledFragments(limit: Int = 6) -> [Fragment] {
        var found: [Fragment] = []
        // Where pieces of lines start: the left edges of columns.
        let edges = blocks.flatMap { $0.paragraphs.joined() }.flatMap { line in
            Self.pieces(line).map { line[$0.lowerBound].box }.map { (x: $0[0], y: $0[1] + $0[3] / 2) }
        }
        for (b, block) in blocks.enumerated() {
            for (p, paragraph) in block.paragraphs.enumerated() {
                for (l, line) in paragraph.enumerated() where !line.isEmpty {
                    let lineHeights = Self.printHeights(line)
                    let height = lineHeights[lineHeights.count / 2]
                    let pieces = Self.pieces(line, edges: edges)
                    func confidence(_ r: Range<Int>) -> Double { Self.meanConfidence(line[r]) }
                    // A short number on a line of its own ("1/1" at a page's foot, read "11"
                    // doubtfully) is read again too, rather than dropped as a scribble.
                    let lone = pieces.count == 1 && line.count <= 2
                    // Small print on a line of larger letters: Tesseract may read the larger
                    // letters badly too, and the line is read again although no piece read well.
                    // A piece's own height is its lower median: "3104 Tønsberg" is as high as its
                    // digits, not as its descender.
                    func own(_ piece: Range<Int>) -> Int {
                        let h = Self.printHeights(line[piece])
                        return h[(h.count - 1) / 2]
                    }
                    let joined = pieces.count > 1 && pieces.contains { 3 * own($0) < 2 * height }
                    guard pieces.count > 1 && (joined || pieces.contains(where: { confidence($0) >= 0.7 })) || lone else { continue }
                    // A mark or two in the margin ("0", "*") is no line of text; a piece read as
                    // a few signs but three line heights wide or more (lines of small print read
                    // as one word, "re") may be.
                    // Which pieces are read again: small print Tesseract put on a line of larger
                    // letters (an address beside a letterhead's name), read against the larger
                    // letters' height, which reaches into its lines above and below, comes out
                    // garbled or as the wrong line's words with middling confidence; a short
                    // number alone unless read surely (a page's number "1/1" read "11",
                    // ``readsAsPageNumber(_:)``); any other piece when garbled, and only when
                    // another piece of its line read well.
                    let wellRead = pieces.contains { confidence($0) >= 0.7 }
                    func small(_ piece: Range<Int>) -> Bool { 3 * own(piece) < 2 * height }
                    // A piece whose tops and bottoms both stand a third of its height or more
                    // above or below those of the rest of its line: a line of the next column,
                    // cut to this line's height ("LE 2085" for "17. juli 2025" beside an address).
                    func offset(_ piece: Range<Int>) -> Bool {
                        let rest = line.indices.filter { !piece.contains($0) }.map { line[$0] }.filter { Self.alphanumerics([$0]) > 0 }
                        let lettered = line[piece].filter { Self.alphanumerics([$0]) > 0 }
                        guard !rest.isEmpty, !lettered.isEmpty else { return false }
                        func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
                        let tops = median(lettered.map { $0.box[1] }) - median(rest.map { $0.box[1] })
                        let bottoms = median(lettered.map { $0.box[1] + $0.box[3] }) - median(rest.map { $0.box[1] + $0.box[3] })
                        return tops.signum() == bottoms.signum() && 3 * min(abs(tops), abs(bottoms)) >= own(piece)
                    }
                    func threshold(_ piece: Range<Int>) -> Double {
                        lone ? Self.loneNumberConfidence : small(piece) || (pieces.count > 1 && offset(piece)) ? Self.joinedConfidence
                            : wellRead ? Self.scribbleConfidence : 0
                    }
                    for piece in pieces where confidence(piece) < threshold(piece) {
                        let left = line[piece].map { $0.box[0] }.min() ?? 0, top = line[piece].map { $0.box[1] }.min() ?? 0
                        let right = line[piece].map { $0.box[0] + $0.box[2] }.max() ?? 0
                        // A number standing apart (a dose in a table's column, "5 mg") is read again
                        // however short, from two signs on; small print, short for its own height.
                        let alphanumerics = Self.alphanumerics(line[piece])
                        let shortNumber = alphanumerics < 5 && right - left < 3 * (small(piece) ? own(piece) : height)
                        guard !lone || shortNumber else { continue }
                        guard !shortNumber || (alphanumerics >= 2 && line[piece].contains(where: { $0.text.contains(where: \.isNumber) })) else { continue }
                        let bottom = line[piece].map { $0.box[1] + $0.box[3] }.max() ?? 0
                        // Small print on a line of larger letters is framed by its own height: the
                        // line's would reach into the small print's next line.
                        let pad = (small(piece) ? own(piece) : height) / 2
                        let x = max(0, left - pad), y = max(0, top - pad)
                        let box = [x, y, min(pageWidth, right + pad) - x, min(pageHeight, bottom + pad) - y]
                        found.append(Fragment(block: b, paragraph: p, line: l, words: piece, box: box, confidence: confidence(piece),
                                              span: top...max(top, bottom), shortNumber: shortNumber,
                                              misplaced: !lone && (small(piece) || offset(piece))))
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

    /// The words a fragment stands for.
    func words(of fragment: Fragment) -> ArraySlice<Word> {
        blocks[fragment.block].paragraphs[fragment.paragraph][fragment.line][fragment.words]
    }

    /// The fragment's words replaced by `words` (a second reading of it).
    mutating func replace(_ fragment: Fragment, with words: [Word]) {
        blocks[fragment.block].paragraphs[fragment.paragraph][fragment.line].replaceSubrange(fragment.words, with: words)
    }

    /// The fragment's words replaced by `lines` (a second reading of it as a block, top to
    /// bottom): the first line's words stand in the fragment's place, the others become lines of
    /// their own right after its line (the cut into columns then reads them in their column,
    /// ``splittingColumns(_:)``).
    mutating func replace(_ fragment: Fragment, withLines lines: [[Word]]) {
        let lines = lines.filter { !$0.isEmpty }
        guard let first = lines.first else { return }
        replace(fragment, with: first)
        blocks[fragment.block].paragraphs[fragment.paragraph].insert(contentsOf: lines.dropFirst(), at: fragment.line + 1)
    }

    /// The fragment's words taken off its line, and `words` (a second reading of it) put on a line
    /// of their own right after it.
    mutating func replace(_ fragment: Fragment, withLineAfter words: [Word]) {
        replace(fragment, with: [])
        blocks[fragment.block].paragraphs[fragment.paragraph].insert(words, at: fragment.line + 1)
    }

    /// Page numbers whose stroke the reading lost ("11" for "1/1", "12" for "1/2"): a line of
    /// one word of two digits, the first no greater than the second, over exactly three marks of
    /// the black and white page (`marks`) side by side, each at least half the word's height:
    /// two digits are two marks, and the third between them is the stroke. The word keeps its
    /// confidence, so a doubtful one stays doubtful, but at least ``scribbleConfidence``: too
    /// unsure a one would be left out as a scribble. So is a page's number read with its stroke
    /// ("1/1") too unsurely, over such marks.
    mutating func restorePageNumberStrokes(marks: [[Int]]) {
        for b in blocks.indices {
            for p in blocks[b].paragraphs.indices {
                for l in blocks[b].paragraphs[p].indices where blocks[b].paragraphs[p][l].count == 1 {
                    let word = blocks[b].paragraphs[p][l][0]
                    // "1/1" as read, or "11" read without its stroke.
                    let digits = Array(word.text)
                    let number: String
                    if Self.hasPageNumberForm(word.text) {
                        number = word.text
                    } else if digits.count == 2, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                              let n = digits[0].wholeNumberValue, let m = digits[1].wholeNumberValue, 1 <= n, n <= m {
                        number = "\(n)/\(m)"
                    } else {
                        continue
                    }
                    guard Self.strokeBetween(word.box, marks: marks) else { continue }
                    blocks[b].paragraphs[p][l][0].text = number
                    blocks[b].paragraphs[p][l][0].confidence = max(word.confidence, Self.scribbleConfidence)
                }
            }
        }
    }

    /// A line read again from where the reading had lost it, put where it stands: into the block
    /// whose box holds its middle, before the first of the block's lines that starts lower (the
    /// cut into columns then reads it in its column, ``splittingColumns(_:)``); or, outside every
    /// block, as a block of its own (``orderedBlocks()`` reads it in its place).
    mutating func insert(lostLine line: [Word]) {
        guard !line.isEmpty else { return }
        guard let b = blockHolding(line) else {
            appendBlock(of: [line])
            return
        }
        let top = Self.frame(line)[1]
        for (p, paragraph) in blocks[b].paragraphs.enumerated() {
            for (l, existing) in paragraph.enumerated() where !existing.isEmpty {
                if (existing.map { $0.box[1] }.min() ?? 0) > top {
                    blocks[b].paragraphs[p].insert(line, at: l)
                    return
                }
            }
        }
        let p = blocks[b].paragraphs.count - 1
        blocks[b].paragraphs[p].append(line)
    }

    /// Leaves out every line that is one or two words of which each is a pen's stroke
    /// (``isPenStroke(_:marks:height:)``); how many lines it left out.
    @discardableResult
    mutating func dropPenStrokes(marks: [[Int]], height: Int) -> Int {
        var dropped = 0
        changeEachLine { line in
            guard (1...2).contains(line.count), line.allSatisfy({ Self.isPenStroke($0, marks: marks, height: height) }) else { return }
            line = []
            dropped += 1
        }
        penStrokeLines += dropped
        return dropped
    }

    /// Leaves out the words that begin a line and are specks read as signs (``isSpecks(_:marks:height:)``:
    /// what is left of a logo), while a word of the line stays; they count among the page's
    /// marks left out. How many it left out.
    @discardableResult
    mutating func dropSpeckWords(marks: [[Int]], height: Int) -> Int {
        var dropped: [Word] = []
        changeEachLine { line in
            let count = line.prefix { Self.isSpecks($0, marks: marks, height: height) }.count
            guard count > 0, count < line.count else { return }
            dropped += line.prefix(count)
            line.removeFirst(count)
        }
        speckWords += dropped
        return dropped.count
    }

    /// Runs `change` on every line of the page, in Tesseract's order.
    private mutating func changeEachLine(_ change: (inout [Word]) -> Void) {
        for b in blocks.indices {
            for p in blocks[b].paragraphs.indices {
                for l in blocks[b].paragraphs[p].indices { change(&blocks[b].paragraphs[p][l]) }
            }
        }
    }

    /// The words of stacked noise (``isStackedNoise(_:height:)``, words `height` tall) whose middle
    /// lies in `box` (x, y, width, height) left out: a region read again there stands for them.
    /// Lines and blocks they leave empty stay, and are read as nothing.
    mutating func dropNoise(in box: [Int], height: Int) {
        for b in blocks.indices {
            for p in blocks[b].paragraphs.indices {
                for l in blocks[b].paragraphs[p].indices {
                    blocks[b].paragraphs[p][l].removeAll { word in
                        let (x, y) = (word.box[0] + word.box[2] / 2, word.box[1] + word.box[3] / 2)
                        return Self.isStackedNoise(word, height: height) && box[0] <= x && x <= box[0] + box[2]
                            && box[1] <= y && y <= box[1] + box[3]
                    }
                }
            }
        }
    }

    /// A lost line read again (`line`, in its box `box`) where noise hid it
    /// (``hidingNoise(in:height:)``, words `height` tall): the noise is left out, and the line
    /// becomes one of its own (``insert(lostLine:)``).
    mutating func insert(lostLine line: [Word], box: [Int], hiddenBy height: Int) {
        for b in blocks.indices {
            for p in blocks[b].paragraphs.indices {
                for l in blocks[b].paragraphs[p].indices {
                    let words = blocks[b].paragraphs[p][l]
                    let noise = Self.hidingNoise(in: words, height: height)
                    if noise > 0, words.suffix(noise).contains(where: { Self.touches($0.box, box) }) {
                        blocks[b].paragraphs[p][l].removeLast(noise)
                    }
                }
            }
        }
        insert(lostLine: line)
    }

    /// Lines read again from a region the reading had lost (``lostRegions(marks:)``), top to
    /// bottom: one block of their own where no block holds their middle, else each put where it
    /// stands (``insert(lostLine:)``).
    mutating func insert(lostLines lines: [[Word]]) {
        let lines = lines.filter { !$0.isEmpty }
        guard !lines.isEmpty else { return }
        guard blockHolding(lines.flatMap { $0 }) != nil else {
            appendBlock(of: lines)
            return
        }
        for line in lines { insert(lostLine: line) }
    }

    /// The box (x, y, width, height) around `words`.
    private static func frame(_ words: [Word]) -> [Int] {
        let left = words.map { $0.box[0] }.min() ?? 0, right = words.map { $0.box[0] + $0.box[2] }.max() ?? 0
        let top = words.map { $0.box[1] }.min() ?? 0, bottom = words.map { $0.box[1] + $0.box[3] }.max() ?? 0
        return [left, top, right - left, bottom - top]
    }

    /// The first block whose box holds the middle of `words`' box.
    private func blockHolding(_ words: [Word]) -> Int? {
        let f = Self.frame(words)
        let (x, y) = (f[0] + f[2] / 2, f[1] + f[3] / 2)
        return blocks.firstIndex { $0.left <= x && x <= $0.right && $0.top <= y && y <= $0.bottom }
    }

    /// `lines` as a block of their own, one paragraph, in the box around them.
    private mutating func appendBlock(of lines: [[Word]]) {
        var block = Block(box: Self.frame(lines.flatMap { $0 }))
        block.paragraphs = [lines]
        blocks.append(block)
    }

    /// A table's rows (``columnTables(marks:)``: the lines of its blocks whose middle lies in its
    /// box) replaced by `lines`, its second reading as one block, top to bottom: they stand where
    /// the first of its rows stood, and a block the table emptied is left out.
    mutating func replace(_ table: ColumnTable, withLines lines: [[Word]]) {
        let lines = lines.filter { !$0.isEmpty }
        guard !lines.isEmpty else { return }
        let box = table.box
        let inTable = table.holds
        var place: (block: Int, paragraph: Int, line: Int)?
        for b in table.blocks.sorted() where blocks.indices.contains(b) {
            for p in blocks[b].paragraphs.indices {
                if place == nil, let l = blocks[b].paragraphs[p].firstIndex(where: inTable) { place = (b, p, l) }
                blocks[b].paragraphs[p].removeAll(where: inTable)
            }
        }
        guard let place else { return }
        blocks[place.block].paragraphs[place.paragraph].insert(contentsOf: lines, at: min(place.line, blocks[place.block].paragraphs[place.paragraph].count))
        let old = blocks[place.block].box
        let left = min(old[0], box[0]), top = min(old[1], box[1])
        let right = max(old[0] + old[2], box[0] + box[2]), bottom = max(old[1] + old[3], box[1] + box[3])
        blocks[place.block].box = [left, top, right - left, bottom - top]
        for b in table.blocks.sorted(by: >) where b != place.block && blocks.indices.contains(b)
            && blocks[b].paragraphs.joined().allSatisfy(\.isEmpty) {
            blocks.remove(at: b)
        }
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
        let word = Word(text: trimmed, confidence: word.confidence, box: word.box)
        if let last = blocks[b].paragraphs[p][l].last, let joined = Self.joinedDigits(last, word) {
            blocks[b].paragraphs[p][l][blocks[b].paragraphs[p][l].count - 1] = joined
            return
        }
        blocks[b].paragraphs[p][l].append(word)
    }

    /// The page as text: blocks in reading order (see ``orderedBlocks()``), cut into columns,
    /// scribbles and marks (``isMarkLine(_:)``, ``leadingMarks(_:margin:)``, ``innerMarks(_:)``,
    /// ``trailingMarks(_:)``) left out; a heading in the margin read where it stands (``placingSideHeadings(_:)``).
    func page() -> OCRPage {
        var items: [(text: String, confidence: Double, box: [Int], breakBefore: LayoutBreak)] = []
        var dropped = 0
        var marks: [RecognizedWord] = [], markLines = 0
        func keep(_ words: ArraySlice<Word>) {
            marks += words.map { RecognizedWord(text: $0.text, confidence: $0.confidence, start: 0, length: 0, box: $0.box) }
        }
        let ordered = splittingColumns(placingSideHeadings(orderedBlocks()))
        let margin = Self.typedMargin(ordered.flatMap { $0.paragraphs.joined() })
        let height = wordHeight()
        for block in ordered {
            var first = true
            for paragraph in block.paragraphs {
                var firstLine = true
                for var line in paragraph where !line.isEmpty {
                    if Self.isScribble(line), !Self.isListLabel(line, margin: margin, height: height) {
                        dropped += 1
                        continue
                    }
                    if Self.isMarkLine(line) {
                        keep(line[...])
                        markLines += 1
                        dropped += 1
                        continue
                    }
                    let leading = Self.leadingMarks(line, margin: margin)
                    if leading > 0 {
                        keep(line.prefix(leading))
                        line.removeFirst(leading)
                        dropped += 1
                    }
                    for run in Self.innerMarks(line).reversed() {
                        keep(line[run])
                        line.removeSubrange(run)
                        dropped += 1
                    }
                    let trailing = Self.trailingMarks(line)
                    if trailing > 0 {
                        keep(line.suffix(trailing))
                        line.removeLast(trailing)
                        dropped += 1
                    }
                    Typography.normalizeDashes(&line)
                    NumberRepair.repair(&line)
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
        page.droppedLines = dropped + penStrokeLines
        page.droppedMarks = speckWords.map { RecognizedWord(text: $0.text, confidence: $0.confidence, start: 0, length: 0, box: $0.box) } + marks
        page.droppedMarkLines = markLines
        return page
    }
}

extension PageLayout {
    /// A number Tesseract cut across two blocks where no space stands ("Dato 9.12." in the
    /// address block, "2024" a block of its own just after it): one word again. The second block's
    /// only word is digits (a sign among them at most, "2024", "10.30"), and starts within a
    /// quarter of the first word's height after its end, on the same line (sharing three quarters
    /// of the smaller height, heights within a quarter of each other); the first word ends in
    /// digits or a sign after them ("9.12."). The word keeps the lower confidence: both parts
    /// were read as they stand.
    mutating func joinCutNumbers() {
        func numeric(_ text: String) -> Bool {
            text.contains(where: \.isNumber) && text.allSatisfy { $0.isNumber || ".,:/-".contains($0) }
        }
        var b = blocks.count - 1
        while b >= 0 {
            defer { b -= 1 }
            let lines = blocks[b].paragraphs.joined().filter { !$0.isEmpty }
            guard lines.count == 1, lines[0].count == 1, let second = lines[0].first, second.box.count == 4,
                  numeric(second.text), second.text.first?.isNumber == true else { continue }
            let s = second.box
            var found: (block: Int, paragraph: Int, line: Int)?
            search: for (i, block) in blocks.enumerated() where i != b {
                for (p, paragraph) in block.paragraphs.enumerated() {
                    for (l, line) in paragraph.enumerated() {
                        guard let first = line.last, first.box.count == 4, numeric(first.text) || first.text.last.map({ ".,:/-".contains($0) }) == true,
                              first.text.contains(where: \.isNumber) else { continue }
                        let f = first.box
                        let gap = s[0] - (f[0] + f[2])
                        let low = min(f[3], s[3]), high = max(f[3], s[3])
                        let shared = min(f[1] + f[3], s[1] + s[3]) - max(f[1], s[1])
                        guard gap >= -2, 4 * gap <= low, 4 * shared >= 3 * low, 4 * low >= 3 * high else { continue }
                        found = (i, p, l)
                        break search
                    }
                }
            }
            guard let (i, p, l) = found, var first = blocks[i].paragraphs[p][l].last else { continue }
            let f = first.box
            let top = min(f[1], s[1]), bottom = max(f[1] + f[3], s[1] + s[3])
            first = Word(text: first.text + second.text, confidence: min(first.confidence, second.confidence),
                         box: [f[0], top, s[0] + s[2] - f[0], bottom - top])
            blocks[i].paragraphs[p][l][blocks[i].paragraphs[p][l].count - 1] = first
            let old = blocks[i].box
            let right = max(old[0] + old[2], s[0] + s[2]), low = max(old[1] + old[3], bottom), high = min(old[1], top)
            blocks[i].box = [old[0], high, right - old[0], low - high]
            blocks.remove(at: b)
        }
    }

    /// A printed line whose end Tesseract made a block of its own ("Rekvirent: Harald Berntsen,"
    /// in the block of the fields under it, "Gamlebyen legesenter" apart, reaching over the end of
    /// the longer lines below): the end read at the end of its line again, wherever the blocks
    /// stand. The end is a block of one line, of words with letters or digits, that starts right
    /// of the line's last word within one of its print heights (a space between words: columns
    /// stand two heights apart or more, ``pieces(_:edges:)``), on the same line (sharing three
    /// quarters of the smaller height) in one size of print (heights within a quarter).
    mutating func joinTornLineEnds() {
        var b = blocks.count - 1
        while b >= 0 {
            defer { b -= 1 }
            let lines = blocks[b].paragraphs.joined().filter { !$0.isEmpty }
            guard lines.count == 1, let tail = lines.first, let start = tail.first, Self.alphanumerics(tail) > 0 else { continue }
            let tailHeights = Self.printHeights(tail)
            let tailTop = tail.map { $0.box[1] }.min() ?? 0, tailBottom = tail.map { $0.box[1] + $0.box[3] }.max() ?? 0
            var found: (block: Int, paragraph: Int, line: Int)?
            search: for (i, block) in blocks.enumerated() where i != b {
                for (p, paragraph) in block.paragraphs.enumerated() {
                    for (l, line) in paragraph.enumerated() where Self.alphanumerics(line) > 0 {
                        guard let end = line.map({ $0.box[0] + $0.box[2] }).max() else { continue }
                        let heights = Self.printHeights(line)
                        let height = heights[(heights.count - 1) / 2], other = tailHeights[(tailHeights.count - 1) / 2]
                        let top = line.map { $0.box[1] }.min() ?? 0, bottom = line.map { $0.box[1] + $0.box[3] }.max() ?? 0
                        let gap = start.box[0] - end
                        let shared = min(bottom, tailBottom) - max(top, tailTop), low = min(bottom - top, tailBottom - tailTop)
                        guard gap >= -2, gap <= height, 4 * shared >= 3 * low,
                              4 * min(height, other) >= 3 * max(height, other) else { continue }
                        found = (i, p, l)
                        break search
                    }
                }
            }
            guard let (i, p, l) = found else { continue }
            blocks[i].paragraphs[p][l] += tail
            let old = blocks[i].box
            let left = min(old[0], blocks[b].left), right = max(old[0] + old[2], blocks[b].right)
            let top = min(old[1], blocks[b].top), bottom = max(old[1] + old[3], blocks[b].bottom)
            blocks[i].box = [left, top, right - left, bottom - top]
            blocks.remove(at: b)
        }
    }
}
