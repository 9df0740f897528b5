internal import CArkivatorFTS
internal import CSQLite

/// The passage of a document shown under a search hit, its hits marked.
///
/// Made here rather than with FTS5's `snippet()`: that one matches every token of the document
/// against every phrase of the expression, and a word's expansions make many phrases, which
/// costs milliseconds per hit. Here the tokenizer stems only the words a hit term could start
/// (``Database/norwegianHits(_:terms:prefixes:)``).
enum Snippet {
    /// The best window of `width` words of `text`: the one with the most different hit terms,
    /// then the most hits. Hits are wrapped in `start`/`end`; "…" marks cut text.
    /// `tokens` are the words of `text` with their UTF-8 ranges, in order, and the index term of
    /// each hit (nil for the other words).
    static func make(_ text: String, tokens: [(term: String?, bytes: Range<Int>)],
                     width: Int = 14, start: String, end: String) -> String {
        guard !tokens.isEmpty else { return "" }
        let hits = tokens.map { $0.term != nil }
        var best = 0
        var bestScore = (-1, -1)
        var from = 0
        while from < tokens.count {
            let window = from..<min(from + width, tokens.count)
            let terms = Set(window.compactMap { tokens[$0].term })
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

extension Database {
    /// The words of `text` in order with their UTF-8 byte ranges, and the index term of those
    /// whose term is one of `terms` or starts with one of `prefixes` (nil for the others), as the
    /// `norwegian` tokenizer makes terms. Only the words such a term could come from are stemmed.
    public func norwegianHits(_ text: String, terms: Set<String>,
                       prefixes: [String]) throws(DatabaseError) -> [(term: String?, bytes: Range<Int>)] {
        var text = text
        var tokens: [(term: String?, bytes: Range<Int>)] = []
        // NUL-terminated strings back to back; an index term never holds a NUL.
        let wanted = Array(terms.filter { !$0.isEmpty && !$0.utf8.contains(0) }.joined(separator: "\0").utf8)
        let starts = Array(prefixes.filter { !$0.isEmpty && !$0.utf8.contains(0) }.joined(separator: "\0").utf8)
        guard wanted.count <= Int(Int32.max), starts.count <= Int(Int32.max) else {
            throw DatabaseError.failure(SQLITE_TOOBIG, connection: nil, sql: nil)
        }
        // A C callback captures nothing: the array travels through the context pointer.
        let collect: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32, Int32, Int32) -> Int32 = {
            context, term, length, start, end in
            guard let context, start >= 0, end >= start else { return SQLITE_MISUSE }
            let found = term.map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: max(0, Int(length))), as: UTF8.self)
            }
            context.assumingMemoryBound(to: [(term: String?, bytes: Range<Int>)].self).pointee
                .append((found, Int(start)..<Int(end)))
            return SQLITE_OK
        }
        let code = text.withUTF8 { utf8 -> Int32 in
            guard utf8.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
            let start = utf8.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            return wanted.withUnsafeBufferPointer { wanted in
                starts.withUnsafeBufferPointer { starts in
                    withUnsafeMutablePointer(to: &tokens) { pointer in
                        wanted.withMemoryRebound(to: CChar.self) { wanted in
                            starts.withMemoryRebound(to: CChar.self) { starts in
                                arkivator_fts_tokenizer_find(tokenizer, start, Int32(utf8.count),
                                                             wanted.baseAddress, Int32(wanted.count),
                                                             starts.baseAddress, Int32(starts.count), pointer, collect)
                            }
                        }
                    }
                }
            }
        }
        try DatabaseError.check(code, connection: handle, sql: nil)
        return tokens
    }
}
