/// A number whose groups of digits stand a space apart ("1 125,00", "33 51 11 00") that Tesseract
/// read as one word, and a limit's sign a space before its number ("< 3,0" read "<3,0"): the space
/// is found again from where its signs stand. And the other way: a number Tesseract cut where no
/// space stands is one word again.
extension PageLayout {
    /// `word` (a number, ``TokenShape/mayBeDigitGroups(_:)``) cut into words where two of its
    /// digits stand a space apart: from the middle of one to the middle of the next, 1.35 times
    /// the step between the others or more (their median), with a fifth of the word's height of
    /// paper between their ink, four pixels at least. A "1" is narrow, and its ink stands farther
    /// from its neighbours' than a wide digit's: steps between middles do not change with a
    /// digit's width. At most half of the steps are cut (a space after every digit is no grouping).
    ///
    /// `symbols` are the boxes Tesseract gives its signs, one to a character. They are often
    /// wrong (a box two digits wide, two boxes over one digit, a box beside its digit); the word
    /// stays whole unless they are plain: one to a character, side by side without overlapping,
    /// and every digit but a "1" from 0.6 to 1.5 times their median width. The parts keep the
    /// word's confidence.
    static func digitGroups(_ word: Word, symbols: [[Int]]) -> [Word] {
        let characters = Array(word.text)
        guard symbols.count == characters.count, characters.count >= 4 else { return [word] }
        for i in 1..<symbols.count where symbols[i][0] < symbols[i - 1][0] + symbols[i - 1][2] { return [word] }
        let widths = characters.indices.filter { characters[$0].isNumber && characters[$0] != "1" }.map { symbols[$0][2] }
        guard widths.count >= 2 else { return [word] }
        let width = widths.sorted()[widths.count / 2]
        guard widths.allSatisfy({ 10 * $0 >= 6 * width && 2 * $0 <= 3 * width }) else { return [word] }
        // Steps between two digits side by side, in half pixels: steps[i] lies after character i.
        var steps: [Int: Int] = [:]
        for i in 0..<(characters.count - 1) where characters[i].isNumber && characters[i + 1].isNumber {
            steps[i] = (2 * symbols[i + 1][0] + symbols[i + 1][2]) - (2 * symbols[i][0] + symbols[i][2])
        }
        guard steps.count >= 3 else { return [word] }
        let paper = max(4, word.box[3] / 5)
        let wide = steps.filter { symbols[$0.key + 1][0] - (symbols[$0.key][0] + symbols[$0.key][2]) >= paper }
        let others = steps.filter { wide[$0.key] == nil }.map(\.value).sorted()
        guard !others.isEmpty else { return [word] }
        let step = max(1, others[others.count / 2])
        let cuts = wide.filter { 100 * $0.value >= 135 * step }.map(\.key).sorted()
        guard !cuts.isEmpty, 2 * cuts.count <= steps.count else { return [word] }
        var parts: [Word] = []
        var start = 0
        for end in cuts.map({ $0 + 1 }) + [characters.count] {
            let boxes = symbols[start..<end]
            let left = boxes.map { $0[0] }.min() ?? word.box[0], right = boxes.map { $0[0] + $0[2] }.max() ?? word.box[0]
            parts.append(Word(text: String(characters[start..<end]), confidence: word.confidence,
                              box: [left, word.box[1], right - left, word.box[3]]))
            start = end
        }
        return parts
    }

    /// Whether a word begins with "<" or ">" and a digit right after it ("<3,0", ">60").
    static func beginsWithComparisonSign(_ text: String) -> Bool {
        let characters = Array(text.prefix(2))
        return characters.count == 2 && (characters[0] == "<" || characters[0] == ">") && characters[1].isASCII && characters[1].isNumber
    }

    /// `word` ("<3,0", ``beginsWithComparisonSign(_:)``) as the sign and the number when a space
    /// stands between them on the page ("< 3,0", as lab reports print a limit): Tesseract reads
    /// the two as one word. A space is a quarter of the word's height of paper between the sign's
    /// ink and the digit's, four pixels at least, and twice the widest gap between the number's
    /// own signs; a sign set close ("<5") stays with its number. `symbols` as in
    /// ``digitGroups(_:symbols:)``: the word stays whole unless they are one to a character,
    /// side by side. The parts keep the word's confidence.
    static func comparisonSignApart(_ word: Word, symbols: [[Int]]) -> [Word] {
        let characters = Array(word.text)
        guard symbols.count == characters.count, characters.count >= 2 else { return [word] }
        for i in 1..<symbols.count where symbols[i][0] < symbols[i - 1][0] + symbols[i - 1][2] { return [word] }
        func gap(_ i: Int) -> Int { symbols[i + 1][0] - (symbols[i][0] + symbols[i][2]) }
        let inner = (1..<(symbols.count - 1)).map(gap).max() ?? 0
        let space = gap(0)
        guard 4 * space >= word.box[3], space >= 4, space >= 2 * inner else { return [word] }
        let sign = symbols[0], rest = symbols[1...]
        let left = rest.map { $0[0] }.min() ?? word.box[0], right = rest.map { $0[0] + $0[2] }.max() ?? word.box[0]
        return [Word(text: String(characters[0]), confidence: word.confidence, box: [sign[0], word.box[1], sign[2], word.box[3]]),
                Word(text: String(characters[1...]), confidence: word.confidence, box: [left, word.box[1], right - left, word.box[3]])]
    }

    /// Two words of digits side by side whose boxes overlap, one word: Tesseract cut a number
    /// where no space stands ("1006206081 1" for a fødselsnummer, which then no longer reads as
    /// one). The second must start inside the first and share half its height. The joined word is
    /// kept doubtful (confidence 0.5 at most): where the cut was is Tesseract's guess, and a
    /// number joined so is worth a look. Nil when the two are not such a pair.
    static func joinedDigits(_ first: Word, _ second: Word) -> Word? {
        func digits(_ text: String) -> Bool { text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
        guard digits(first.text), digits(second.text), first.box.count == 4, second.box.count == 4 else { return nil }
        let a = first.box, b = second.box
        guard b[0] > a[0], b[0] < a[0] + a[2] else { return nil }
        let shared = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
        guard 2 * shared >= min(a[3], b[3]) else { return nil }
        let left = a[0], top = min(a[1], b[1])
        let right = max(a[0] + a[2], b[0] + b[2]), bottom = max(a[1] + a[3], b[1] + b[3])
        return Word(text: first.text + second.text, confidence: min(first.confidence, second.confidence, 0.5),
                    box: [left, top, right - left, bottom - top])
    }
}
