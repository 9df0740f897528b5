/// A full stop that Tesseract read as a comma or an "e" ("1940," "Nr," "3e" for "1940." "Nr."
/// "3."): typewriters print the stop as a round blot, which the model takes for a comma after a
/// number or an abbreviation, or for an "e" after a digit or a capital. The mark's own shape
/// decides.
extension PageLayout {
    /// `word` with a last "," (or an "e" after a digit or a capital, ``mayBeStop(_:)``) that is a
    /// full stop by its shape: about as wide as tall (no more than 1.15 times as tall), at most
    /// half as tall as the word's other signs, and standing on their line (its foot at most a
    /// tenth of their height below the middle of their feet). A comma hangs below the line and is
    /// taller than wide; an "e" is two thirds of a digit's height. The signs must be tall enough to
    /// judge (16 pixels, about 10 pt at 300 px/inch), and `symbols` one to a character, as in
    /// ``digitGroups(_:symbols:)``; otherwise the word stays as read.
    static func fullStop(_ word: Word, symbols: [[Int]]) -> Word {
        let characters = Array(word.text)
        guard characters.count >= 2, mayBeStop(word.text), symbols.count == characters.count,
              symbols.allSatisfy({ $0.count == 4 }), let mark = symbols.last else { return word }
        let others = symbols.dropLast()
        let heights = others.map { $0[3] }.sorted(), feet = others.map { $0[1] + $0[3] }.sorted()
        let tall = heights[heights.count / 2], line = feet[feet.count / 2]
        guard tall >= 16, mark[2] > 0,
              100 * mark[3] <= 115 * mark[2], 2 * mark[3] <= tall,
              10 * (mark[1] + mark[3] - line) <= tall else { return word }
        var stopped = word
        stopped.text = String(characters.dropLast()) + "."
        return stopped
    }

    /// Whether the last sign of `text` may be a full stop misread: a "," after anything, an "e"
    /// after a digit or a capital ("3e", "Ge").
    static func mayBeStop(_ text: String) -> Bool {
        let characters = Array(text.suffix(2))
        guard characters.count == 2 else { return false }
        return characters[1] == "," || (characters[1] == "e" && (characters[0].isNumber || characters[0].isUppercase))
    }
}

/// Two words with a comma between them that Tesseract read as one ("tilhører,henholdsvis"): a
/// typewriter's space after a comma is narrow, and the model leaves it out.
extension PageLayout {
    /// The place of the comma in `text` when a word of two letters or more stands on each side
    /// of it (letters only, one comma, a stop after the second allowed: "Formue,der"); nil for a
    /// number ("2,5"), a code or anything else.
    static func commaBetweenWords(_ text: String) -> Int? {
        let characters = Array(text)
        guard let comma = characters.firstIndex(of: ",") else { return nil }
        let before = characters[..<comma], after = characters[(comma + 1)...]
        let letters = after.prefix { $0.isLetter }
        guard before.count >= 2, before.allSatisfy(\.isLetter), letters.count >= 2,
              after.dropFirst(letters.count).allSatisfy({ ".;:)!?".contains($0) }) else { return nil }
        return comma
    }

    /// `word` cut after its comma (``commaBetweenWords(_:)``) into two words that keep its
    /// confidence: each takes its signs' boxes when `symbols` are one to a character, else a share
    /// of the word's box by its length.
    static func commaApart(_ word: Word, at comma: Int, symbols: [[Int]]) -> [Word] {
        let characters = Array(word.text)
        let first = String(characters[...comma]), second = String(characters[(comma + 1)...])
        let box = word.box
        guard box.count == 4 else { return [word] }
        var split = box[0] + box[2] * (comma + 1) / max(1, characters.count)
        var secondStart = split
        if symbols.count == characters.count, symbols.allSatisfy({ $0.count == 4 }),
           symbols[comma][0] + symbols[comma][2] > box[0], symbols[comma + 1][0] < box[0] + box[2],
           symbols[comma + 1][0] >= symbols[comma][0] + symbols[comma][2] - 1 {
            split = symbols[comma][0] + symbols[comma][2]
            secondStart = symbols[comma + 1][0]
        }
        guard split > box[0], secondStart < box[0] + box[2] else { return [word] }
        return [Word(text: first, confidence: word.confidence, box: [box[0], box[1], split - box[0], box[3]]),
                Word(text: second, confidence: word.confidence, box: [secondStart, box[1], box[0] + box[2] - secondStart, box[3]])]
    }
}
