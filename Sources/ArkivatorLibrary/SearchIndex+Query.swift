import ArkivatorCore
internal import CSQLite
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
    /// Milliseconds per step (expand, filter, rank, partial, hits), for benchmarks and `--verbose`.
    public var milliseconds: [String: Double] = [:]
}

extension SearchIndex {
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
        if let years, years.count <= yearWordLimit {
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
        return try library.withReader { database in
            var milliseconds: [String: Double] = [:]
            var clock = DispatchTime.now().uptimeNanoseconds
            func lap(_ step: String) {
                let now = DispatchTime.now().uptimeNanoseconds
                milliseconds[step] = Double(now - clock) / 1e6
                clock = now
            }
            var expansions = try expansions(for: query.words, in: database)
            // Other spellings of the words (without æ, ø, å; one typing error): searched beside
            // them, ranked below them.
            var fuzzy: Set<String> = []
            for (word, terms) in try spellings(for: query.words, known: expansions, in: database) {
                expansions[word, default: []] += terms.map { ($0, false) }
                fuzzy.formUnion(terms.map { SearchQuery.termMarker + $0 })
            }
            let prefixTerms = try prefixTerms(for: Self.prefixes(in: query.root), in: database)
            let phraseSpellings = try phraseSpellings(for: Self.phrases(in: query.root), in: database)
            fuzzy.formUnion(phraseSpellings.values.map { $0.joined(separator: " ") })
            lap("expand")
            guard let words = query.ftsExpression(expand: { expansions[$0] ?? [] }, terms: { prefixTerms[$0] },
                                                  phrases: { phraseSpellings[$0] }) else {
                throw LibraryFailure.emptyQuery(query.notes.first)
            }
            // The phrases a word stands for (itself, its inflections and compounds) count as one.
            var groups: [String: Int] = [:]
            for (index, word) in query.words.enumerated() {
                for form in [word] + (expansions[word] ?? []).map({ SearchQuery.termMarker + $0.text }) where groups[form] == nil {
                    groups[form] = index
                }
            }
            let restriction = try searchFilter(filter, in: database)
            lap("filter")
            var (ranked, total) = try rank(words, filter: restriction, limit: limit, groups: groups, fuzzy: fuzzy, in: database)
            lap("rank")
            // Too few documents hold every word: add the best of those that hold some of them (the
            // words of a letter's subject are not always its words), after the full matches.
            var partial = false
            let complete = ranked.count
            if ranked.count < limit, case .and(let parts)? = query.root, parts.count > 1,
               let any = SearchQuery(root: .or(parts)).ftsExpression(expand: { expansions[$0] ?? [] },
                                                                     terms: { prefixTerms[$0] }, phrases: { phraseSpellings[$0] }) {
                let found = Set(ranked.map(\.id))
                let more = try rank(any, filter: restriction, limit: limit, groups: groups, fuzzy: fuzzy, in: database).rows
                    .filter { !found.contains($0.id) }
                partial = !more.isEmpty
                ranked += more.prefix(limit - ranked.count)
                total = max(total, ranked.count)
                lap("partial")
            }
            var hitTerms = Set(expansions.values.joined().map(\.text))
            for word in query.highlightTerms + phraseSpellings.values.joined() { hitTerms.formUnion(try database.norwegianTerms(word)) }
            let prefixes = Self.prefixes(in: query.root)
            // The summary's columns and then the text, from one read of the row.
            let summary = try database.prepare("SELECT \(DocumentStore.summaryColumns), d.text FROM documents d WHERE d.id = ?")
            var hits: [DocumentSummary] = []
            for (index, row) in ranked.enumerated() {
                let id = row.id
                try summary.bind([id])
                guard try summary.step() else { continue }
                let columns = summary.row()
                var hit = library.documents.summary(columns)
                if let text = columns.values.last?.string {
                    let tokens = try database.norwegianHits(text, terms: hitTerms, prefixes: prefixes)
                    hit.snippet = Self.oneLine(Snippet.make(text, tokens: tokens, start: Self.markStart, end: Self.markEnd))
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

    /// What a filter adds to a search. Person, type, sender and year are words of the index, so
    /// FTS5 narrows the match itself (`terms`). What words cannot say exactly, a date inside a year
    /// and "no person", is a set of rows read from a list index once per search (`rows`): tested
    /// for each match in C, so no documents row is read to filter (each lies on a page of its own,
    /// and reading hundreds of them cost milliseconds).
    struct SearchFilter {
        /// Words of the index, each of which a match must hold.
        var terms: [String] = []
        /// An `arkivator_rowid_set`: the rows to keep (`keep`), or to leave out.
        var rows: (set: Data, keep: Bool)?
    }

    /// The search's form of `filter` (see ``SearchFilter``).
    func searchFilter(_ filter: DocumentFilter, in database: Database) throws -> SearchFilter {
        let years = try years(of: filter, in: database)
        var result = SearchFilter(terms: Self.filterTerms(filter, years: years))
        // The years are words of the expression when there are few enough of them; then only a
        // date that cuts into the first or the last year needs the rows' dates.
        let yearWords = years.map { $0.count <= Self.yearWordLimit } ?? false
        let cutsFirst = filter.from.map { $0.month != 1 || $0.day != 1 } ?? false
        let cutsLast = filter.to.map { $0.month != 12 || $0.day != 31 } ?? false
        let datesNeeded = (filter.from != nil || filter.to != nil) && !(yearWords && !cutsFirst && !cutsLast)
        guard datesNeeded || filter.withoutPerson || filter.members != nil else { return result }
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if filter.withoutPerson {
            // As the partial index documents_not_filed writes them, so SQLite reads that index.
            conditions += ["d.trashed_at IS NULL", "d.family_member IS NULL"]
        }
        if let members = filter.members {
            // An account's members, as the partial index documents_by_member writes them.
            if !filter.withoutPerson { conditions.append("d.trashed_at IS NULL") }
            conditions.append(DocumentFilter.memberCondition(members))
            arguments += members
        }
        if datesNeeded, let from = filter.from {
            conditions.append("d.document_date >= ?")
            arguments.append(from.iso)
        }
        if datesNeeded, let to = filter.to {
            conditions.append("d.document_date <= ?")
            arguments.append(to.iso)
        }
        var sql = "SELECT arkivator_rowid_set(d.id) FROM documents d WHERE " + conditions.joined(separator: " AND ")
        var keep = true
        // With the years in the expression, the rows of the first and last year that fall outside
        // the dates can be left out instead of keeping those inside: the smaller set is read.
        if let years, yearWords, !filter.withoutPerson, filter.members == nil,
           let outside = Self.outsideDays(from: filter.from, to: filter.to, years: years),
           outside < Self.insideDays(from: filter.from, to: filter.to, years: years) {
            var parts: [String] = []
            arguments = []
            if cutsFirst, let from = filter.from {
                parts.append("SELECT id FROM documents WHERE document_date >= ? AND document_date < ?")
                arguments += [String(format: "%04d", years.lowerBound), from.iso]
            }
            if cutsLast, let to = filter.to {
                parts.append("SELECT id FROM documents WHERE document_date > ? AND document_date < ?")
                arguments += [to.iso, String(format: "%04d", years.upperBound + 1)]
            }
            sql = "SELECT arkivator_rowid_set(id) FROM (\(parts.joined(separator: " UNION ALL ")))"
            keep = false
        }
        // An aggregate always gives one row, and this one a blob.
        guard let set = try database.firstRow(sql, arguments)?[0].data else {
            throw DatabaseError.failure(SQLITE_MISMATCH, connection: nil, sql: sql, message: "no rowid set")
        }
        result.rows = (set, keep)
        return result
    }

    /// The most years a date filter adds to the expression as words.
    static let yearWordLimit = 60

    /// Days from `from` (or the first year's first day) to `to` (or the last year's last day), both counted.
    static func insideDays(from: CalendarDate?, to: CalendarDate?, years: ClosedRange<Int>) -> Int {
        let first = from?.dayNumber ?? CalendarDate.dayNumber(year: years.lowerBound, month: 1, day: 1)
        let last = to?.dayNumber ?? CalendarDate.dayNumber(year: years.upperBound, month: 12, day: 31)
        return last - first + 1
    }

    /// Days of the first and last year outside `from`…`to`; nil when a date lies outside the years.
    static func outsideDays(from: CalendarDate?, to: CalendarDate?, years: ClosedRange<Int>) -> Int? {
        if let from, from.year != years.lowerBound { return nil }
        if let to, to.year != years.upperBound { return nil }
        let before = from.map { $0.dayNumber - CalendarDate.dayNumber(year: $0.year, month: 1, day: 1) } ?? 0
        let after = to.map { CalendarDate.dayNumber(year: $0.year, month: 12, day: 31) - $0.dayNumber } ?? 0
        return before + after
    }

    /// The best `limit` matches of an expression of words under the filter, and how many match
    /// (counted up to ``rankingLimit`` + 1).
    func rank(_ words: String, filter: SearchFilter, limit: Int, groups: [String: Int] = [:], fuzzy: Set<String> = [],
              in database: Database) throws -> (rows: [(id: Int, score: Double)], total: Int) {
        // Filter words first: FTS5 walks an AND from its first operand, and they are the rarer.
        let expression = filter.terms.isEmpty ? words : filter.terms.joined(separator: " AND ") + " AND (\(words))"
        var arguments: [any DatabaseValueConvertible] = [expression]
        var rowTest = ""
        if let (set, keep) = filter.rows {
            rowTest = " AND \(keep ? "" : "NOT ")arkivator_rowid_in(?, documents_fts.rowid)"
            arguments.append(set)
        }
        let newest = try database.firstRow("SELECT max(id) FROM documents")?[0].int ?? 0
        let spec = try rankingSpec(expression, groups: groups, fuzzy: fuzzy, rows: newest, in: database)
        var statements: [Bool: Statement] = [:]
        // The matches among rows `range`, up to `count`, newest first or oldest first. The row
        // test comes before the score, so only the rows that pass it are scored; and with the
        // number of rows kept, a row that cannot be among them is not scored (NULL).
        func scan(_ range: ClosedRange<Int>, newestFirst: Bool, count: Int) throws -> [(id: Int, score: Double?)] {
            let statement = try statements[newestFirst] ?? database.prepare("""
                SELECT documents_fts.rowid, arkivator_rank(documents_fts, \(Self.weights), ?, ?) FROM documents_fts
                WHERE documents_fts MATCH ?\(rowTest) AND documents_fts.rowid BETWEEN ? AND ?
                ORDER BY documents_fts.rowid \(newestFirst ? "DESC" : "ASC") LIMIT ?
                """)
            statements[newestFirst] = statement
            try statement.bind([spec, max(limit, 0)] + arguments + [range.lowerBound, range.upperBound, count])
            var rows: [(id: Int, score: Double?)] = []
            // The two values of each row, without copying out whole rows (with their column names).
            while try statement.step() {
                guard let id = statement.value(at: 0).int else { continue }
                rows.append((id, statement.value(at: 1).double))
            }
            return rows
        }
        // The newest matches, up to one more than are ranked: the best of the newest
        // `rankingLimit` are the hits. FTS5 walks from the newest row down and stops there, but
        // walks down a third slower than up. So the newest eighth of the rows comes first; when
        // it holds too few matches to fill the window, and the rest likely holds fewer than the
        // window has room for, the rest is walked up (all of its matches are then in the window;
        // should there be more, it is walked down after all).
        let wanted = Self.rankingLimit + 1
        let split = newest - max(newest / 8, 1)
        var scored = try scan((split + 1)...Int.max, newestFirst: true, count: wanted)
        if scored.count < wanted, split >= 0 {
            let room = wanted - scored.count
            let expected = Double(scored.count) * Double(split) / Double(max(newest - split, 1))
            var older: [(id: Int, score: Double?)] = []
            if expected < 0.6 * Double(room) {
                older = try scan(Int.min...split, newestFirst: false, count: room)
            }
            if older.count >= room || expected >= 0.6 * Double(room) {
                older = try scan(Int.min...split, newestFirst: true, count: room)
            }
            scored += older
        }
        let ranked = scored.prefix(Self.rankingLimit).compactMap { row in row.score.map { (id: row.id, score: $0) } }
            .sorted { ($0.score, $0.id) < ($1.score, $1.id) }
        return (Array(ranked.prefix(max(limit, 0))), scored.count)
    }
}
