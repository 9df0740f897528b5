/// The passage of a document shown under a search hit, its hits marked.
///
/// Made here rather than with FTS5's `snippet()`: that one matches every token of the document
/// against every phrase of the expression, and a word's expansions make many phrases, which
/// costs milliseconds per hit. Here each token is one set lookup.
enum Snippet {
    /// The best window of `width` words of `text`: the one with the most different hit terms,
    /// then the most hits. Hits are wrapped in `start`/`end`; "…" marks cut text.
    /// `tokens` are the index terms of `text` with their UTF-8 ranges, in order.
    static func make(_ text: String, tokens: [(term: String, bytes: Range<Int>)], isHit: (String) -> Bool,
                     width: Int = 14, start: String, end: String) -> String {
        guard !tokens.isEmpty else { return "" }
        let hits = tokens.map { isHit($0.term) }
        var best = 0
        var bestScore = (-1, -1)
        var from = 0
        while from < tokens.count {
            let window = from..<min(from + width, tokens.count)
            let terms = Set(window.filter { hits[$0] }.map { tokens[$0].term })
            let score = (terms.count, window.filter { hits[$0] }.count)
            if score > bestScore {
                bestScore = score
                best = from
            }
            // Only windows that start just before a hit can be better than the first one.
            guard let next = hits[(from + 1)...].firstIndex(of: true) else { break }
            from = max(from + 1, next - 2)
        }
        if bestScore.1 > 0 { best = max(0, min(best, tokens.count - width)) }
        let window = best..<min(best + width, tokens.count)
        let utf8 = Array(text.utf8)
        var output: [UInt8] = []
        var cursor = tokens[window.lowerBound].bytes.lowerBound
        for index in window {
            let range = tokens[index].bytes
            guard range.lowerBound >= cursor, range.upperBound <= utf8.count else { continue }
            output += utf8[cursor..<range.lowerBound]
            if hits[index] {
                output += Array(start.utf8) + utf8[range] + Array(end.utf8)
            } else {
                output += utf8[range]
            }
            cursor = range.upperBound
        }
        var snippet = String(decoding: output, as: UTF8.self)
        if window.lowerBound > 0 { snippet = "…" + snippet }
        if window.upperBound < tokens.count { snippet += "…" }
        return snippet
    }
}
