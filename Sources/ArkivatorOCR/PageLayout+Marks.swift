/// Marks read as characters: ticks, strokes and letters written in the margin or over a typed
/// page, stamps' edges. They are left out of the text (they stay on the page image).
extension PageLayout {
    /// Whether a line is made of marks (``TokenShape/isMark(_:)``) only, lone characters aside
    /// when at least half its tokens are marks: a line of "|", "]", "E", "xA" or "| IE] W 2" is
    /// handwriting or a margin mark read as characters, not text. A table's number cell ("< 5",
    /// ``isNumberCell(_:)``) is none.
    static func isMarkLine(_ line: [Word]) -> Bool {
        let marks = line.filter { TokenShape.isMark($0.text) }.count
        return marks > 0 && marks * 2 >= line.count && !isNumberCell(line)
            && line.allSatisfy { $0.text.count == 1 || TokenShape.isMark($0.text) }
    }

    /// How many marks end a typed line: tokens that are marks (``TokenShape/isMark(_:)``) set
    /// apart from the line's text by a gap wider than twice the line's height and three times its
    /// usual word spacing ("… eller |", "… Konfiske-   E"); marks close together after such a gap
    /// go with it. At least two words of text stay.
    static func trailingMarks(_ line: [Word]) -> Int {
        guard line.count >= 3 else { return 0 }
        let spacing = LineSpacing(line)
        var index = line.count - 1
        while index >= 2, TokenShape.isMark(line[index].text) {
            if spacing.setsApart(spacing.gaps[index - 1]) { return line.count - index }
            index -= 1
        }
        return 0
    }

    /// A token read with less confidence than this may be a mark where it stands apart before a
    /// typed line; typed words, even faint ones, read with more.
    static let leadingMarkConfidence = 0.5

    /// How many tokens that begin a typed line are marks: each read with confidence under
    /// ``leadingMarkConfidence``, of at most three letters or digits, and set apart from the
    /// line's text, by a gap wider than twice the line's height and three times its usual word
    /// spacing ("fr      Det jødiske Spørgsmaal"), or by standing wholly left of `margin`, where
    /// the page's typed lines begin ("oÖ den 31. f.M."). A pencilled tick or letter in the left
    /// margin is read into the line beside it this way. At least two words of text stay.
    static func leadingMarks(_ line: [Word], margin: Int?) -> Int {
        guard line.count >= 3 else { return 0 }
        let spacing = LineSpacing(line)
        var count = 0
        while count < line.count - 2 {
            let word = line[count]
            // A list's label before its item ("B.  Forordning …") is no mark.
            guard isDoubtfulMark(word), count > 0 || !hasListLabelShape(word.text) else { break }
            let inMargin = margin.map { word.box[0] + word.box[2] < $0 - spacing.height / 2 } ?? false
            guard spacing.setsApart(spacing.gaps[count]) || inMargin else { break }
            count += 1
        }
        return count
    }

    /// Whether a line is a list's label alone ("B.", "E.", "3.", "a)"), however doubtfully read:
    /// a label's shape (``hasListLabelShape(_:)``), as tall as the
    /// page's words (`height`, ``wordHeight()``) give or take a half, standing in the margin
    /// left of where the typed lines begin (`margin`, ``typedMargin(_:)``) or at it. Typewritten
    /// lists put it there, apart from the item's text, and the model reads it with little
    /// confidence; a scribble it is not.
    static func isListLabel(_ line: [Word], margin: Int?, height: Int?) -> Bool {
        guard line.count == 1, let word = line.first, let margin, let height, hasListLabelShape(word.text) else { return false }
        let h = Double(word.box[3]), text = Double(height)
        return h >= 0.5 * text && h <= 1.5 * text && word.box[0] + word.box[2] <= margin + height / 2
    }

    /// Whether a word has a list label's shape: one letter or one or two digits with a point,
    /// comma or bracket after it ("B.", "3.", "a)"; "A," is "A." read doubtfully).
    static func hasListLabelShape(_ text: String) -> Bool {
        text.wholeMatch(of: /(?:[A-ZÆØÅa-zæøå]|\d{1,2})[.,)]/) != nil
    }

    /// Where the page's typed lines begin: the left edge that most lines of three words or more
    /// start at (within half a line's height), nil when no edge is shared by three lines or more.
    static func typedMargin(_ lines: [[Word]]) -> Int? {
        let starts = lines.filter { $0.count >= 3 }.compactMap { line -> (x: Int, height: Int)? in
            // The line's text begins at its first word read with confidence.
            guard let first = line.first(where: { $0.confidence >= leadingMarkConfidence }) else { return nil }
            return (first.box[0], first.box[3])
        }
        guard starts.count >= 3 else { return nil }
        let heights = starts.map(\.height).sorted()
        let tolerance = max(1, heights[heights.count / 2] / 2)
        var best: (x: Int, count: Int)?
        for start in starts {
            let near = starts.filter { abs($0.x - start.x) <= tolerance }
            let edge = near.map(\.x).min() ?? start.x
            if near.count > (best?.count ?? 0) { best = (edge, near.count) }
        }
        return best.flatMap { $0.count >= 3 ? $0.x : nil }
    }

    /// The stretches inside a line that are marks: tokens read with confidence under
    /// ``leadingMarkConfidence``, of at most three letters or digits each, standing alone in a
    /// wide space between two parts of the line (wider than twice the line's height and three
    /// times its usual word spacing on both sides): handwriting between a margin note and a
    /// reference ("4 Bilag.   sr GO –   Ges. No. 200"). A number alone in such a space is a
    /// table's cell (``isTableValue(_:)``) and stays.
    static func innerMarks(_ line: [Word]) -> [Range<Int>] {
        guard line.count >= 3 else { return [] }
        let spacing = LineSpacing(line)
        let gaps = spacing.gaps
        func wide(_ gap: Int) -> Bool { spacing.setsApart(gap) }
        let doubtful = isDoubtfulMark
        var runs: [Range<Int>] = []
        var index = 1
        while index < line.count - 1 {
            // A run starts after a wide gap (gaps[i - 1] lies between word i - 1 and word i).
            guard wide(gaps[index - 1]), doubtful(line[index]) else { index += 1; continue }
            var end = index + 1
            while end < line.count - 1, !wide(gaps[end - 1]), doubtful(line[end]) { end += 1 }
            if end < line.count, wide(gaps[end - 1]), !isTableValue(line[index..<end]) { runs.append(index..<end) }
            index = end
        }
        return runs
    }

    /// A number alone in a column of a table, with the H or L flag a lab value may carry ("199 H",
    /// "4,1", "< 5") or a dose's unit ("40 mg" in a list of medicines): a cell, however unsure
    /// the reading, not a mark.
    static func isTableValue(_ words: ArraySlice<Word>) -> Bool {
        var texts = words.map(\.text)
        if texts.count > 1, ["H", "L", "*"].contains(texts[texts.count - 1]) || NumberRepair.doseUnits.contains(texts[texts.count - 1]) {
            texts.removeLast()
        }
        if texts.count > 1, ["<", ">"].contains(texts[0]) { texts.removeFirst() }
        guard texts.count == 1, var number = texts.first else { return false }
        if let first = number.first, "<>".contains(first) { number.removeFirst() }
        if let last = number.last, "HL".contains(last), number.count > 1 { number.removeLast() }
        return number.wholeMatch(of: /[0-9]+(?:[,.][0-9]+)?/) != nil
    }

    /// A token read with confidence under ``leadingMarkConfidence``, of at most three letters or
    /// digits: a mark where it stands apart from a typed line's text.
    static func isDoubtfulMark(_ word: Word) -> Bool {
        word.confidence < leadingMarkConfidence && word.text.filter { $0.isLetter || $0.isNumber }.count <= 3
    }
}

/// How a line's words stand: its height and usual word spacing (the medians), and the gap after
/// each word; a gap wider than twice the height and three times the spacing sets words apart.
struct LineSpacing {
    let height: Int
    let spacing: Int
    /// `gaps[i]` lies between word `i` and word `i + 1`.
    let gaps: [Int]

    init(_ line: [PageLayout.Word]) {
        let heights = line.map { $0.box[3] }.sorted()
        height = heights.isEmpty ? 0 : heights[heights.count / 2]
        gaps = zip(line, line.dropFirst()).map { $1.box[0] - ($0.box[0] + $0.box[2]) }
        let sorted = gaps.sorted()
        spacing = max(1, sorted.isEmpty ? 1 : sorted[sorted.count / 2])
    }

    func setsApart(_ gap: Int) -> Bool { gap > 2 * height && gap > 3 * spacing }
}
