import Foundation

/// Words that are one pen stroke: a signature written in one movement, read as a word.
///
/// Print is made of separate letters (a few touch); a signature drawn without lifting the pen is
/// one shape, wider and taller than the page's print, and the model may read it as a plausible
/// word ("SNANS" for a squiggle under «Med venleg helsing»). Such a word, alone on its line, is
/// left out: no letter of print is one shape three word heights wide and half again as tall.
extension PageLayout {
    /// Whether `word` covers one connected mark (of `marks`, boxes x, y, width, height of the
    /// page read) three word heights wide (`height`) or more and half again as tall, that spans
    /// most of the word: a pen's stroke, not print.
    static func isPenStroke(_ word: Word, marks: [[Int]], height: Int) -> Bool {
        guard height > 0, alphanumerics([word]) >= 3 else { return false }
        let box = word.box
        return marks.contains { m in
            guard m[2] >= 3 * height, 2 * m[3] >= 3 * height else { return false }
            let left = max(m[0], box[0]), right = min(m[0] + m[2], box[0] + box[2])
            let top = max(m[1], box[1]), bottom = min(m[1] + m[3], box[1] + box[3])
            guard right > left, bottom > top else { return false }
            // The stroke spans most of the word, and the word most of the stroke.
            return 5 * (right - left) >= 4 * box[2] && 5 * (right - left) >= 4 * m[2]
        }
    }
}

/// Words read on what is left of a picture: a letterhead's coloured logo beside the name, taken
/// out by the cleanup but for a few specks at its edges, which the model reads as a few signs
/// ("+73", "->..\"").
extension PageLayout {
    /// Whether `word` is specks read as signs: read doubtfully (under 0.7), of three letters or
    /// digits at most, as tall as three fifths of a word height (`height`) or more, and framing
    /// marks (of `marks`, those whose middle it holds) of which none is taller than three tenths
    /// of the word. The letters of a word span most of its height (a small letter half of it);
    /// specks do not.
    static func isSpecks(_ word: Word, marks: [[Int]], height: Int) -> Bool {
        let box = word.box
        guard height > 0, word.confidence < 0.7, alphanumerics([word]) <= 3, 5 * box[3] >= 3 * height else { return false }
        let inside = marks.filter { m in
            let (x, y) = (m[0] + m[2] / 2, m[1] + m[3] / 2)
            return box[0] <= x && x <= box[0] + box[2] && box[1] <= y && y <= box[1] + box[3]
        }
        guard let tallest = inside.map({ $0[3] }).max() else { return false }
        return 10 * tallest <= 3 * box[3]
    }
}
