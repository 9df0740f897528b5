/// A number whose groups of digits stand a space apart ("1 125,00", "33 51 11 00") that Tesseract
/// read as one word: the space is found again from where its signs stand.
extension PageLayout {
    /// `word` (a number, ``TokenShape/mayBeDigitGroups(_:)``) cut into words where two of its
    /// digits stand a space apart: from the middle of one to the middle of the next, 1.3 times the
    /// step between its closer digits (the lower quarter of its steps) or more, with four pixels or
    /// more between their ink. A "1" is narrow, and its ink stands farther from its neighbours'
    /// than a wide digit's: the steps between middles do not change with a digit's width. `symbols`
    /// are the boxes of its signs, one to a character; with any other count the word stays whole.
    /// At most half of the steps are cut (a space after every digit is no grouping). The parts
    /// keep the word's confidence.
    static func digitGroups(_ word: Word, symbols: [[Int]]) -> [Word] {
        let characters = Array(word.text)
        guard symbols.count == characters.count, characters.count >= 4 else { return [word] }
        // Steps between two digits side by side, in half pixels: steps[i] lies after character i.
        var steps: [Int: Int] = [:]
        for i in 0..<(characters.count - 1) where characters[i].isNumber && characters[i + 1].isNumber {
            steps[i] = (2 * symbols[i + 1][0] + symbols[i + 1][2]) - (2 * symbols[i][0] + symbols[i][2])
        }
        guard steps.count >= 3 else { return [word] }
        let close = steps.values.sorted()[steps.count / 4]
        guard close > 0 else { return [word] }
        let cuts = steps.filter { i, step in
            10 * step >= 13 * close && symbols[i + 1][0] - (symbols[i][0] + symbols[i][2]) >= 4
        }.map(\.key).sorted()
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
}
