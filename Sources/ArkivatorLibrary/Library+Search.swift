import ArkivatorCore
import Foundation

/// What a search found.
public struct SearchResult: Sendable, Equatable {
    /// Best first.
    public var hits: [DocumentSummary]
    /// Documents that match (at most ``Library/rankingLimit`` + 1 are counted).
    public var total: Int
    /// True when more than ``Library/rankingLimit`` documents match: then only the most recently
    /// added ones were ranked, and the user is told to narrow the search.
    public var capped: Bool
    /// What was not taken literally, in plain words.
    public var notes: [UserMessage]
    /// The FTS5 expression that ran (for `--verbose` and tests).
    public var expression: String
    /// Words to mark when printing the text.
    public var highlightTerms: [String]
    /// Milliseconds per step (expand, match, rank, hits), for benchmarks and `--verbose`.
    public var milliseconds: [String: Double] = [:]
}

extension Library {
    /// The most matches ranked by relevance. Ranking costs about a microsecond per match; with more
    /// matches than this, the newest this many are ranked, so a search stays fast on any library.
    public static let rankingLimit = 500
    /// Marks a hit in a snippet: start and end (control characters that OCR text never holds).
    public static let markStart = "\u{2}"
    public static let markEnd = "\u{3}"
    /// Column weights for bm25, in the index's column order: title, text, institution,
    /// specialty, keywords, then the filter words (people, kind, sender, period). The title counts
    /// most.
    static let weights = "10.0, 1.0, 3.0, 3.0, 5.0, 0.0, 0.0, 0.0, 0.0"

    /// The filter as terms of the search: the index holds each document's person, type, sender
    /// and year as words of their own ("ppkari", "ttepikrise", "iiolavs", "y2024"; see the
    /// migration), so every word of a given name must be there, and the year one of the range's.
    static func filterTerms(_ filter: DocumentFilter, years: ClosedRange<Int>?) -> [String] {
        var parts: [String] = []
        if let years, years.count <= 60 {
            parts.append("(" + years.map { "\"y\($0)\"" }.joined(separator: " OR ") + ")")
        }
        for (marker, value) in [("pp", filter.person), ("tt", filter.type?.rawValue), ("ii", filter.institution)] {
            guard let value else { continue }
            let words = value.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            guard !words.isEmpty else { continue }
            // A type like "lab-svar" is one word there ("ttlabsvar"); names are words in any order.
            parts += marker == "tt" ? ["\"tt\(words.joined())\""] : words.map { "\"\(marker)\($0)\"" }
        }
        return parts
    }

    /// The years a date filter covers, open ends closed by the library's own first and last
    /// letter dates; nil without a date filter or with an empty range.
    func years(of filter: DocumentFilter, in database: Database) throws -> ClosedRange<Int>? {
        guard filter.from != nil || filter.to != nil else { return nil }
        // Two statements: SQLite reads min() or max() from the index, but not both in one.
        let earliest = filter.from == nil ? try database.firstRow("SELECT min(document_date) FROM documents")?[0].string : nil
        let latest = filter.to == nil ? try database.firstRow("SELECT max(document_date) FROM documents")?[0].string : nil
        guard let first = filter.from?.year ?? earliest.flatMap({ Int($0.prefix(4)) }),
              let last = filter.to?.year ?? latest.flatMap({ Int($0.prefix(4)) }), first <= last else { return nil }
        return first...last
    }

    /// Full-text search: words find their inflections (stemming) and the compounds they start or
    /// stand in; `"phrases"`, `prefix*`, `AND`/`OR`/`NOT`/`-word` and parentheses work; any text
    /// is safe to pass. Results are ranked by bm25 with the title weighted up.
    ///
    /// - Throws: ``LibraryFailure`` `.emptyQuery` when nothing searchable is left.
    public func search(_ text: String, filter: DocumentFilter = DocumentFilter(), limit: Int = 20,
                       stopwords: Set<String> = SearchStopwords.norwegian) throws -> SearchResult {
        let query = SearchQuery.parse(text, stopwords: stopwords)
        guard query.root != nil else { throw LibraryFailure.emptyQuery(query.notes.first) }
        return try withReader { database in
            var milliseconds: [String: Double] = [:]
            var clock = DispatchTime.now().uptimeNanoseconds
            func lap(_ step: String) {
                let now = DispatchTime.now().uptimeNanoseconds
                milliseconds[step] = Double(now - clock) / 1e6
                clock = now
            }
            let expansions = try expansions(for: query.words, in: database)
            let prefixTerms = try prefixTerms(for: Self.prefixes(in: query.root), in: database)
            lap("expand")
            guard let words = query.ftsExpression(expand: { expansions[$0] ?? [] }, terms: { prefixTerms[$0] }) else {
                throw LibraryFailure.emptyQuery(query.notes.first)
            }
            // The phrases a word stands for (itself, its inflections and compounds) count as one.
            var groups: [String: Int] = [:]
            for (index, word) in query.words.enumerated() {
                for form in [word] + (expansions[word] ?? []).map({ SearchQuery.termMarker + $0.text }) where groups[form] == nil {
                    groups[form] = index
                }
            }
            var (ranked, total) = try rank(words, filter: filter, limit: limit, groups: groups, in: database)
            lap("rank")
            // Too few documents hold every word: add the best of those that hold some of them (the
            // words of a letter's subject are not always its words), after the full matches.
            var partial = false
            let complete = ranked.count
            if ranked.count < limit, case .and(let parts)? = query.root, parts.count > 1,
               let any = SearchQuery(root: .or(parts)).ftsExpression(expand: { expansions[$0] ?? [] },
                                                                     terms: { prefixTerms[$0] }) {
                let found = Set(ranked.map(\.id))
                let more = try rank(any, filter: filter, limit: limit, groups: groups, in: database).rows
                    .filter { !found.contains($0.id) }
                partial = !more.isEmpty
                ranked += more.prefix(limit - ranked.count)
                total = max(total, ranked.count)
                lap("partial")
            }
            let textOf = try database.prepare("SELECT text FROM documents WHERE id = ?")
            var hitTerms = Set(expansions.values.joined().map(\.text))
            for word in query.highlightTerms { hitTerms.formUnion(try database.norwegianTerms(word)) }
            let prefixes = Self.prefixes(in: query.root)
            let isHit: (String) -> Bool = { term in
                hitTerms.contains(term) || (!prefixes.isEmpty && prefixes.contains { term.utf8.starts(with: $0.utf8) })
            }
            let summary = try database.prepare("SELECT \(Self.summaryColumns) FROM documents d WHERE d.id = ?")
            var hits: [DocumentSummary] = []
            for (index, row) in ranked.enumerated() {
                let id = row.id
                try summary.bind([id])
                guard try summary.step() else { continue }
                var hit = Self.summary(summary.row())
                try textOf.bind([id])
                if try textOf.step(), let text = textOf.row()[0].string {
                    hit.snippet = Self.oneLine(Snippet.make(text, tokens: try database.norwegianTokens(text), isHit: isHit,
                                                            start: Self.markStart, end: Self.markEnd))
                }
                hit.score = row.score
                if index >= complete { hit.partial = true }
                hits.append(hit)
            }
            var notes = query.notes
            if partial {
                notes.append(UserMessage(nb: "Noen treff har bare noen av ordene; de står sist.",
                                         en: "Some matches hold only some of the words; they come last."))
            }
            if total > Self.rankingLimit {
                notes.append(UserMessage(
                    nb: "Over \(Self.rankingLimit) treff: viser de beste blant de sist arkiverte. Legg til flere ord, --person, --type eller --from for å snevre inn.",
                    en: "Over \(Self.rankingLimit) matches: showing the best of the most recently filed. Add words, --person, --type or --from to narrow it down."))
            }
            lap("hits")
            return SearchResult(hits: hits, total: total, capped: total > Self.rankingLimit, notes: notes,
                                expression: words, highlightTerms: query.highlightTerms, milliseconds: milliseconds)
        }
    }

    /// The best `limit` matches of an expression of words under the filter, and how many match
    /// (counted up to ``rankingLimit`` + 1).
    func rank(_ words: String, filter: DocumentFilter, limit: Int, groups: [String: Int] = [:],
              in database: Database) throws -> (rows: [(id: Int, score: Double)], total: Int) {
        // Person, type, sender and year are words of the index, so FTS5 narrows the match itself.
        // Exact dates and "no person" need the documents table, and then FTS5 drives the join (CROSS JOIN keeps
        // that order) so the words are matched once, not once per row.
        let years = try years(of: filter, in: database)
        let filterTerms = Self.filterTerms(filter, years: years)
        // Filter words first: FTS5 walks an AND from its first operand, and they are the rarer.
        let expression = filterTerms.isEmpty ? words : filterTerms.joined(separator: " AND ") + " AND (\(words))"
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = [expression]
        // Whole years are settled by the year column; only a range with a cut inside a year
        // needs the exact dates.
        let yearsAreExact = years != nil && (filter.from.map { $0.month == 1 && $0.day == 1 } ?? true)
            && (filter.to.map { $0.month == 12 && $0.day == 31 } ?? true)
        if let from = filter.from, !yearsAreExact {
            conditions.append("d.document_date >= ?")
            arguments.append(from.iso)
        }
        if let to = filter.to, !yearsAreExact {
            conditions.append("d.document_date <= ?")
            arguments.append(to.iso)
        }
        if filter.withoutPerson {
            conditions += ["d.family_member IS NULL", "d.person IS NULL"]
        }
        let from = conditions.isEmpty
            ? "documents_fts WHERE documents_fts MATCH ?"
            : "documents_fts CROSS JOIN documents d ON d.id = documents_fts.rowid WHERE documents_fts MATCH ? AND "
                + conditions.joined(separator: " AND ")
        let spec = try rankingSpec(expression, groups: groups, in: database)
        let score = "arkivator_rank(documents_fts, \(Self.weights), ?)"
        // One pass scores the newest matches, up to one more than are ranked (FTS5 walks the
        // matches from the newest row down and stops there); the best of the newest
        // `rankingLimit` are the hits.
        let scored = try database.rows("""
            SELECT documents_fts.rowid, \(score) FROM \(from) ORDER BY documents_fts.rowid DESC LIMIT ?
            """, [spec] + arguments + [Self.rankingLimit + 1])
            .compactMap { row in row[0].int.map { (id: $0, score: row[1].double ?? 0) } }
        let ranked = scored.prefix(Self.rankingLimit).sorted { ($0.score, $0.id) < ($1.score, $1.id) }
        return (Array(ranked.prefix(max(limit, 0))), scored.count)
    }

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
    /// `"idf group;idf group;…"`.
    func rankingSpec(_ expression: String, groups: [String: Int], in database: Database) throws -> String {
        let rows = Double(try database.firstRow("SELECT max(id) FROM documents")?[0].int ?? 0)
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
            return String(format: "%.4f %d", best, groups[phrase] ?? -1)
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

    /// A snippet on one line.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isNewline || $0 == "\u{0C}" }).joined(separator: " · ")
    }
}

/// Words a search skips when other words remain: the language's function words ("og", "til").
public enum SearchStopwords {
    public static let norwegian: Set<String> = {
        Stopwords.functionWords
    }()
}
