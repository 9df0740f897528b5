import ArkivatorClassify
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
    /// specialty, keywords, people, doc_type, period. The title counts most; type and year are
    /// only for filtering.
    static let weights = "10.0, 1.0, 3.0, 3.0, 5.0, 3.0, 0.0, 0.0"

    /// FTS5 column filters for the person, type, sender and years of a filter: every word of
    /// the given name must stand in that column; the letter's year must be one of the range's.
    /// (The exact dates are checked on the documents table.)
    static func columnFilters(_ filter: DocumentFilter) -> [String] {
        var parts: [String] = []
        let first = filter.from.flatMap { Int($0.prefix(4)) } ?? filter.to.flatMap { Int($0.prefix(4)) }.map { $0 - 200 }
        let last = filter.to.flatMap { Int($0.prefix(4)) } ?? filter.from.flatMap { Int($0.prefix(4)) }.map { $0 + 200 }
        if let first, let last, first <= last, last - first <= 40 {
            parts.append("period : (" + (first...last).map { "\"y\($0)\"" }.joined(separator: " OR ") + ")")
        }
        for (column, value) in [("people", filter.person), ("doc_type", filter.type?.rawValue),
                                ("institution", filter.institution)] {
            guard let value else { continue }
            let words = value.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            guard !words.isEmpty else { continue }
            // A type like "lab-svar" is one phrase; a name is words in any order.
            if column == "doc_type" {
                parts.append("doc_type : \"\(words.joined(separator: " "))\"")
            } else {
                parts += words.map { "\(column) : \"\($0)\"" }
            }
        }
        return parts
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
        return try withDatabase { database in
            var milliseconds: [String: Double] = [:]
            var clock = DispatchTime.now().uptimeNanoseconds
            func lap(_ step: String) {
                let now = DispatchTime.now().uptimeNanoseconds
                milliseconds[step] = Double(now - clock) / 1e6
                clock = now
            }
            let expansions = try expansions(for: query.words, in: database)
            lap("expand")
            guard let words = query.ftsExpression(expand: { expansions[$0] ?? [] }) else {
                throw LibraryFailure.emptyQuery(query.notes.first)
            }
            var (ranked, total) = try rank(words, filter: filter, limit: limit, in: database)
            lap("rank")
            // Too few documents hold every word: add the best of those that hold some of them (the
            // words of a letter's subject are not always its words), after the full matches.
            var partial = false
            if ranked.count < limit, case .and(let parts)? = query.root, parts.count > 1,
               let any = SearchQuery(root: .or(parts)).ftsExpression(expand: { expansions[$0] ?? [] }) {
                let found = Set(ranked.map(\.id))
                let more = try rank(any, filter: filter, limit: limit, in: database).rows.filter { !found.contains($0.id) }
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
            for row in ranked {
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
    func rank(_ words: String, filter: DocumentFilter, limit: Int,
              in database: Database) throws -> (rows: [(id: Int, score: Double)], total: Int) {
        // Person, type, sender and year are columns of the index: as column filters they narrow
        // the match inside FTS5. Exact dates need the documents table, and then FTS5 drives the
        // join (CROSS JOIN keeps that order) so the words are matched once, not once per row.
        let columnFilters = Self.columnFilters(filter)
        let expression = columnFilters.isEmpty ? words : "(\(words)) AND " + columnFilters.joined(separator: " AND ")
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = [expression]
        if let from = filter.from {
            conditions.append("d.document_date >= ?")
            arguments.append(from)
        }
        if let to = filter.to {
            conditions.append("d.document_date <= ?")
            arguments.append(to)
        }
        let from = conditions.isEmpty
            ? "documents_fts WHERE documents_fts MATCH ?"
            : "documents_fts CROSS JOIN documents d ON d.id = documents_fts.rowid WHERE documents_fts MATCH ? AND "
                + conditions.joined(separator: " AND ")
        // More matches than can be ranked fast: rank those among the newest documents, in a
        // window of rows about as wide as it took to find that many matches from the oldest.
        // (FTS5 walks matches in rowid order and can start at a rowid; bm25 costs per match.)
        var rankFrom = from
        var rankArguments = arguments
        let probe = try database.rows("SELECT documents_fts.rowid FROM \(from) LIMIT ?", arguments + [Self.rankingLimit + 1])
        if probe.count > Self.rankingLimit, let reach = probe.last?[0].int,
           let newest = try database.firstRow("SELECT max(id) FROM documents")?[0].int {
            rankFrom += " AND documents_fts.rowid > ?"
            rankArguments.append(max(0, newest - reach))
        }
        let rows = try database.rows("""
            SELECT documents_fts.rowid, bm25(documents_fts, \(Self.weights)) AS score FROM \(rankFrom)
            ORDER BY score LIMIT ?
            """, rankArguments + [max(limit, 0)])
        return (rows.compactMap { row in row[0].int.map { ($0, row[1].double ?? 0) } }, probe.count)
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
            var terms: [String] = [stem]
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
        ArkivatorClassify.Vocabulary.standard.functionWords
    }()
}
