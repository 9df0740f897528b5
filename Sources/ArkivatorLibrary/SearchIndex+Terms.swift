import ArkivatorCore
internal import CSQLite
import Foundation

/// How the words of a search become the index's terms: prefixes, inflections and compounds,
/// and the ranking expression over them.
extension SearchIndex {
    /// For prefixes of four letters or more, every index term that starts with them, when there
    /// are at most ``prefixTermLimit``: the vocabulary holds every such term (they are words of four
    /// letters or more), and a few terms search much faster than an FTS5 prefix query, which
    /// merges the posting lists of all of them on every use.
    func prefixTerms(for prefixes: [String], in database: Database) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        let starting = try database.prepare("SELECT term FROM vocabulary WHERE term >= ? AND term < ? LIMIT ?")
        for prefix in Set(prefixes) where prefix.unicodeScalars.count >= 4 && CompoundVocabulary.worthKeeping(prefix) {
            try starting.bind([prefix, prefix + "\u{10FFFF}", Self.prefixTermLimit + 1])
            let terms = try starting.rows().compactMap { $0[0].string }
            if terms.count <= Self.prefixTermLimit { result[prefix] = terms.isEmpty ? [prefix] : terms }
        }
        return result
    }

    static let prefixTermLimit = 24

    /// What `arkivator_rank` needs per phrase of an expression, in FTS5's phrase order (the order
    /// the quoted strings stand in): its inverse document frequency as bm25 reckons it, from the
    /// stored term counts, and its group (the word it stands for; -1 for a group of its own), as
    /// `"idf group;idf group;…"`; a phrase in `fuzzy` (another spelling of a word typed) is
    /// `"idf group 1"`, and ranks below the words as typed.
    func rankingSpec(_ expression: String, groups: [String: Int], fuzzy: Set<String> = [], rows: Int,
                     in database: Database) throws -> String {
        let rows = Double(rows)
        let lookup = try database.prepare("SELECT documents FROM term_documents WHERE term = ?")
        return try Self.quotedStrings(in: expression).map { phrase in
            let terms = phrase.hasPrefix(SearchQuery.termMarker)
                ? [String(phrase.dropFirst(SearchQuery.termMarker.count))] : try database.norwegianTerms(phrase)
            var best = 1e-6
            for term in terms {
                try lookup.bind([term])
                let count = try lookup.step() ? Double(lookup.row()[0].int ?? 0) : 0
                best = max(best, log((rows - count + 0.5) / (count + 0.5)))
            }
            return String(format: "%.4f %d", best, groups[phrase] ?? -1) + (fuzzy.contains(phrase) ? " 1" : "")
        }.joined(separator: ";")
    }

    /// The contents of the double-quoted strings of an FTS5 expression, in order (`""` is a quote).
    static func quotedStrings(in expression: String) -> [String] {
        var strings: [String] = []
        var current: String.UnicodeScalarView?
        var scalars = expression.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            guard scalar == "\"" else {
                current?.append(scalar)
                continue
            }
            if current == nil {
                current = String.UnicodeScalarView()
            } else if pending == "\"" {
                current?.append(scalar)
                pending = scalars.next()
            } else if let done = current {
                strings.append(String(done))
                current = nil
            }
        }
        return strings
    }

    /// For each word, the index terms it also stands for: the terms that start with its stem
    /// (inflections, and compounds it starts: "blodprøve" → "blodprøvesv") and up to
    /// ``compoundLimit`` terms that hold the stem inside (compounds it ends or stands in:
    /// "prøvesvar" → "blodprøvesv"), from the vocabulary. Concrete terms, not FTS5 prefix
    /// queries: a prefix query merges every matching term's whole posting list on each use,
    /// while a term can seek straight to one row (which the per-hit snippet relies on).
    func expansions(for words: [String], in database: Database) throws -> [String: [(text: String, prefix: Bool)]] {
        var result: [String: [(text: String, prefix: Bool)]] = [:]
        let starting = try database.prepare("SELECT term FROM vocabulary WHERE term >= ? AND term < ? LIMIT ?")
        let containing = try database.prepare("""
            SELECT term FROM vocabulary_trigram WHERE vocabulary_trigram MATCH ? ORDER BY length(term) LIMIT ?
            """)
        for word in Set(words) {
            let stems = try database.norwegianTerms(word)
            guard stems.count == 1, let stem = stems.first, CompoundVocabulary.worthKeeping(stem) else { continue }
            // The word itself becomes this stem in the index: only the other terms are new.
            var terms: [String] = []
            try starting.bind([stem, stem + "\u{10FFFF}", Self.inflectionLimit * 8])
            let inflections = try starting.rows().compactMap { $0[0].string }.filter { $0 != stem }
            terms += inflections.sorted { ($0.count, $0) < ($1.count, $1) }.prefix(Self.inflectionLimit)
            try containing.bind(["\"" + stem.replacingOccurrences(of: "\"", with: "\"\"") + "\"", Self.compoundLimit * 3])
            terms += try containing.rows().compactMap { $0[0].string }.filter { !$0.hasPrefix(stem) }.prefix(Self.compoundLimit)
            result[word] = terms.map { ($0, false) }
        }
        return result
    }

    /// The most terms a word's stem is expanded to by its start, and by what it stands in.
    static let inflectionLimit = 6
    static let compoundLimit = 4

    /// The prefixes the user typed (`orto*`), outside NOT parts.
    static func prefixes(in node: SearchQuery.Node?) -> [String] {
        switch node {
        case .prefix(let text): [text]
        case .and(let nodes), .or(let nodes): nodes.flatMap { prefixes(in: $0) }
        case .not(let kept, _): prefixes(in: kept)
        case .word, .phrase, nil: []
        }
    }

    /// The phrases the user typed (or a hyphenated word, `øre-nese-hals`), outside NOT parts.
    static func phrases(in node: SearchQuery.Node?) -> [[String]] {
        switch node {
        case .phrase(let words): [words]
        case .and(let nodes), .or(let nodes): nodes.flatMap { phrases(in: $0) }
        case .not(let kept, _): phrases(in: kept)
        case .word, .prefix, nil: []
        }
    }

    /// A snippet on one line: its lines joined by " · ", empty ones left out.
    static func oneLine(_ text: String) -> String {
        // In UTF-8 bytes, not by Character (which finds grapheme breaks first): every line break
        // (LF, VT, FF, CR, NEL, LS, PS) is a grapheme of its own but CR LF, which here is two
        // breaks with an empty line between them, left out as every empty line is.
        var output: [UInt8] = []
        var pending = false
        var text = text
        text.withUTF8 { bytes in
            output.reserveCapacity(bytes.count + 16)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                var size = 0
                if (0x0A...0x0D).contains(byte) {
                    size = 1
                } else if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0x85 {
                    size = 2
                } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                          bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                    size = 3
                }
                if size > 0 {
                    pending = !output.isEmpty
                    index += size
                    continue
                }
                if pending { output += " · ".utf8 }
                pending = false
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
