/// Marks read as characters: ticks, strokes and letters written in the margin or over a typed
/// page, stamps' edges. They are left out of the text (they stay on the page image).
extension PageLayout {
    /// Whether a line is made of marks (``TokenShape/isMark(_:)``) only, lone characters aside
    /// when at least half its tokens are marks: a line of "|", "]", "E", "xA" or "| IE] W 2" is
    /// handwriting or a margin mark read as characters, not text.
    static func isMarkLine(_ line: [Word]) -> Bool {
        let marks = line.filter { TokenShape.isMark($0.text) }.count
        return marks > 0 && marks * 2 >= line.count
            && line.allSatisfy { $0.text.count == 1 || TokenShape.isMark($0.text) }
    }

    /// How many marks end a typed line: tokens that are marks (``TokenShape/isMark(_:)``) set
    /// apart from the line's text by a gap wider than twice the line's height and three times its
    /// usual word spacing ("… eller |", "… Konfiske-   E"); marks close together after such a gap
    /// go with it. At least two words of text stay.
    static func trailingMarks(_ line: [Word]) -> Int {
        guard line.count >= 3 else { return 0 }
        let heights = line.map { $0.box[3] }.sorted()
        let height = heights[heights.count / 2]
        let gaps = zip(line, line.dropFirst()).map { $1.box[0] - ($0.box[0] + $0.box[2]) }.sorted()
        let spacing = max(1, gaps[gaps.count / 2])
        var index = line.count - 1
        while index >= 2, TokenShape.isMark(line[index].text) {
            let gap = line[index].box[0] - (line[index - 1].box[0] + line[index - 1].box[2])
            if gap > 2 * height, gap > 3 * spacing { return line.count - index }
            index -= 1
        }
        return 0
    }
}
