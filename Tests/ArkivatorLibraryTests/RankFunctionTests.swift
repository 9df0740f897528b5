import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// The FTS5 function `arkivator_rank` on a real table: bm25 as FTS5's own `bm25()` reckons it when
/// each phrase is a group of its own, and with a number of rows kept, the same best rows with the
/// same scores (the others NULL, their length never read).
@Suite struct RankFunctionTests {
    static let words = ["kne", "hofte", "smerter", "kontroll", "time", "brev", "lege", "skulder", "rygg", "prøve"]

    /// 400 rows of made-up titles and texts of many lengths, the same on every run.
    private func withTable(_ body: (Database) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let database = try Database(url: directory.appendingPathComponent(Database.fileName))
            try database.execute(script: "CREATE VIRTUAL TABLE t USING fts5(title, text, tokenize = 'norwegian')")
            var seed: UInt64 = 42
            func next(_ bound: Int) -> Int {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((seed >> 33) % UInt64(bound))
            }
            for row in 1...400 {
                let title = (0..<(1 + next(3))).map { _ in Self.words[next(Self.words.count)] }.joined(separator: " ")
                let text = (0..<(3 + next(300))).map { _ in
                    next(4) == 0 ? Self.words[next(Self.words.count)] : "ord\(next(50))"
                }.joined(separator: " ")
                try database.execute("INSERT INTO t (rowid, title, text) VALUES (?, ?, ?)", [row, title, text])
            }
            try body(database)
        }
    }

    /// Rows and scores, newest first, as a search reads them (NULL kept as nil).
    private func scores(_ database: Database, _ expression: String, spec: String,
                        best: Int? = nil) throws -> [(id: Int, score: Double?)] {
        let rank = best == nil ? "arkivator_rank(t, 10.0, 1.0, ?)" : "arkivator_rank(t, 10.0, 1.0, ?, ?)"
        let arguments: [any DatabaseValueConvertible] = best.map { [spec, $0, expression] } ?? [spec, expression]
        return try database.rows("SELECT rowid, \(rank) FROM t WHERE t MATCH ? ORDER BY rowid DESC", arguments)
            .compactMap { row in row[0].int.map { (id: $0, score: row[1].double) } }
    }

    private func top(_ rows: [(id: Int, score: Double?)], _ count: Int) -> [(id: Int, score: Double)] {
        Array(rows.compactMap { row in row.score.map { (id: row.id, score: $0) } }
            .sorted { ($0.score, $0.id) < ($1.score, $1.id) }.prefix(count))
    }

    /// The idf FTS5's bm25() gives each phrase (documents holding it, of all rows), in phrase order.
    private func idf(_ database: Database, _ phrases: [String]) throws -> String {
        let rows = Double(try database.firstRow("SELECT count(*) FROM t")?[0].int ?? 0)
        return try phrases.map { phrase in
            let count = Double(try database.firstRow("SELECT count(*) FROM t WHERE t MATCH ?", [phrase])?[0].int ?? 0)
            let idf = log((rows - count + 0.5) / (count + 0.5))
            return String(format: "%.17g -1", idf > 0 ? idf : 1e-6)
        }.joined(separator: ";")
    }

    @Test func singlePhraseGroupsScoreAsBm25() throws {
        try withTable { database throws in
            for phrases in [["\"kne\""], ["\"kne\"", "\"hofte\""], ["\"smerter\"", "\"rygg\"", "\"prøve\""]] {
                let expression = phrases.joined(separator: " OR ")
                let ours = try scores(database, expression, spec: try idf(database, phrases))
                let theirs = try database.rows("SELECT rowid, bm25(t, 10.0, 1.0) FROM t WHERE t MATCH ? ORDER BY rowid DESC",
                                               [expression]).compactMap { row in row[1].double }
                #expect(ours.count == theirs.count)
                for (mine, bm25) in zip(ours, theirs) {
                    #expect(abs((mine.score ?? .nan) - bm25) <= 1e-9 * max(1, abs(bm25)), "\(expression) row \(mine.id)")
                }
            }
        }
    }

    /// However many rows are kept, they are the same rows with the same scores as when every row
    /// is scored; the rows left unscored are fewer than all.
    @Test func keepingTheBestScoresTheSameBestRows() throws {
        try withTable { database throws in
            let cases: [(String, String)] = [
                ("\"kne\"", "2.5 0"),
                ("\"kne\" OR \"hofte\" OR \"smerter\"", "1.2 0;2.0 0;0.7 1"),
                ("\"kontroll\" AND \"time\"", "0.4 0;3.1 1"),
                ("\"lege\" OR \"brev\" OR \"ord1\"", ""),
            ]
            for (expression, spec) in cases {
                let all = try scores(database, expression, spec: spec)
                #expect(all.allSatisfy { $0.score != nil })
                for best in [1, 3, 20, 1_000] {
                    let kept = try scores(database, expression, spec: spec, best: best)
                    #expect(kept.map(\.id) == all.map(\.id))
                    let exact = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0.score) })
                    #expect(kept.allSatisfy { $0.score == nil || $0.score == exact[$0.id] ?? nil }, "\(expression) \(best)")
                    let mine = top(kept, best), theirs = top(all, best)
                    #expect(mine.map(\.id) == theirs.map(\.id), "\(expression) best \(best)")
                    #expect(mine.map(\.score) == theirs.map(\.score))
                    if best < 20, all.count > 50 {
                        #expect(kept.contains { $0.score == nil }, "\(expression): some rows are not scored")
                    }
                }
            }
        }
    }
}
