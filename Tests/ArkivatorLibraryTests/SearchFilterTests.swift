import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// Search filters that the index's words cannot say exactly (a date inside a year, "no person"):
/// read as a set of rows from a list index (`arkivator_rowid_set`) and tested per match
/// (`arkivator_rowid_in`). A search must find exactly what the library list finds.
@Suite struct SearchFilterTests {
    /// Letters on the days at and around the cuts the cases below make, each holding "kontroll";
    /// every third has no person, types take turns.
    static let dates = ["2021-12-31", "2022-01-01", "2022-01-14", "2022-01-15", "2022-06-29", "2022-06-30",
                        "2022-07-01", "2022-12-31", "2023-01-01", "2023-02-28", "2023-03-01", "2023-04-30",
                        "2023-05-01", "2023-12-20", "2023-12-21", "2023-12-31", "2024-01-01", "2024-07-15"]

    static func letters(_ dates: [String]) -> [LibraryDocument] {
        let types: [DocumentType] = [.epikrise, .innkalling, .labSvar]
        return dates.enumerated().map { index, date in
            Letters.letter("dato-\(index)-\(date)", "Kontroll \(index)", type: types[index % 3],
                           person: index % 3 == 2 ? nil : "Kari", institution: "St. Olavs hospital", date: date,
                           text: "Kontroll etter operasjon. Brev nummer \(index).")
        }
    }

    private func found(_ library: Library, _ filter: DocumentFilter) throws -> Set<String> {
        Set(try library.index.search("kontroll", filter: filter, limit: 100).hits.filter { $0.partial != true }.map(\.id))
    }

    private func filter(_ from: String?, _ to: String?, type: DocumentType? = nil,
                        withoutPerson: Bool = false) -> DocumentFilter {
        DocumentFilter(type: type, from: from.flatMap(CalendarDate.init(iso:)), to: to.flatMap(CalendarDate.init(iso:)),
                       withoutPerson: withoutPerson)
    }

    /// Windows inside one year (the rows inside are kept), across years with both ends cut (the
    /// rows of the first and last year outside are left out), open ends, one day, whole years and
    /// an empty range: the search finds what the list finds, and the letters the dates say.
    @Test func dateCutsInsideYearsFindWhatTheListFinds() throws {
        try withLibrary { library, _ throws in
            let documents = Self.letters(Self.dates)
            try library.documents.record(documents)
            let cases: [(String?, String?)] = [
                ("2023-03-01", "2023-04-30"), ("2022-01-15", "2023-12-20"), ("2022-06-30", nil), (nil, "2023-04-30"),
                ("2022-12-31", "2023-01-01"), ("2022-07-01", "2022-07-01"), ("2022-01-01", "2023-12-31"),
                ("2023-06-01", "2023-05-01"), ("2022-01-14", "2024-01-01"), (nil, "2021-12-31"), ("2024-07-15", nil),
            ]
            for (from, to) in cases {
                let expected = Set(documents.filter { document in
                    document.documentDate >= (from ?? "") && document.documentDate <= (to ?? "9999")
                }.map(\.shortID))
                for filter in [filter(from, to), filter(from, to, type: .epikrise), filter(from, to, withoutPerson: true)] {
                    let listed = Set(try library.documents.list(filter, limit: 100).map(\.id))
                    #expect(try found(library, filter) == listed, "search and list \(filter)")
                    if filter.type == nil && !filter.withoutPerson {
                        #expect(listed == expected, "the dates \(from ?? "…")–\(to ?? "…")")
                    }
                }
            }
        }
    }

    /// A range of more than 60 years is not written as year words; its dates still hold.
    @Test func aRangeOfManyYearsKeepsItsDates() throws {
        try withLibrary { library, _ throws in
            let documents = Self.letters(["1950-06-01", "2023-03-01"])
            try library.documents.record(documents)
            #expect(try found(library, filter("1960-01-01", "2100-12-31")) == [documents[1].shortID])
            #expect(try found(library, filter(nil, "1999-12-31")) == [documents[0].shortID])
            #expect(try found(library, filter("1900-01-01", "2100-12-31")) == Set(documents.map(\.shortID)))
        }
    }

    /// "No person" alone and with other filters, as the list reads it.
    @Test func withoutPersonFindsWhatTheListFinds() throws {
        try withLibrary { library, _ throws in
            try library.documents.record(Self.letters(Self.dates))
            for filter in [DocumentFilter(withoutPerson: true), DocumentFilter(type: .labSvar, withoutPerson: true),
                           DocumentFilter(type: .epikrise, withoutPerson: true)] {
                let listed = Set(try library.documents.list(filter, limit: 100).map(\.id))
                #expect(try found(library, filter) == listed, "\(filter)")
            }
            #expect(try found(library, DocumentFilter(type: .epikrise, withoutPerson: true)).isEmpty)
            #expect(try found(library, DocumentFilter(withoutPerson: true)).count == Self.dates.count / 3)
        }
    }

    /// The two SQL functions on their own: dense rows (a bitmap), sparse and extreme ones (a
    /// sorted array), none at all, NULLs, and a blob that is not a set.
    @Test func rowidSetsHoldExactlyTheirRows() throws {
        try withTemporaryDirectory { directory in
            let database = try Database(url: directory.appendingPathComponent(Database.fileName))
            try database.execute(script: "CREATE TABLE t (id INTEGER PRIMARY KEY, tag TEXT)")
            let dense = Array(1...1_000)
            let sparse = [Int(Int64.min), -5, 0, 7, 1_000_000, Int(Int64.max)]
            for id in dense { try database.execute("INSERT INTO t VALUES (?, 'dense')", [id]) }
            for id in sparse where id < 1 || id > 1_000 { try database.execute("INSERT INTO t VALUES (?, 'sparse')", [id]) }
            let probes = [Int(Int64.min), Int(Int64.min) + 1, -6, -5, -1, 0, 1, 2, 3, 7, 8, 999, 1_000, 1_001,
                          999_999, 1_000_000, 1_000_001, Int(Int64.max) - 1, Int(Int64.max)]
            let cases: [(String, Set<Int>)] = [
                ("tag = 'dense' AND id % 3 = 0", Set(dense.filter { $0 % 3 == 0 })),
                ("tag = 'dense'", Set(dense)),
                ("tag = 'sparse' OR id = 7", Set(sparse)),
                ("id = 999", [999]),
                ("0", []),
            ]
            for (condition, members) in cases {
                let set = try #require(try database.firstRow("SELECT arkivator_rowid_set(id) FROM t WHERE \(condition)")?[0].data)
                for probe in probes.union(members.prefix(50)) {
                    let isIn = try database.firstRow("SELECT arkivator_rowid_in(?, ?)", [set, probe])?[0].int
                    #expect(isIn == (members.contains(probe) ? 1 : 0), "\(probe) in \(condition)")
                }
                #expect(try database.firstRow("SELECT arkivator_rowid_in(?, NULL)", [set])?[0].int == 0)
            }
            let nulls = try #require(try database.firstRow("SELECT arkivator_rowid_set(NULL) FROM t")?[0].data)
            #expect(try database.firstRow("SELECT arkivator_rowid_in(?, 1)", [nulls])?[0].int == 0, "NULLs are no members")
            #expect(throws: DatabaseError.self) { try database.firstRow("SELECT arkivator_rowid_in(x'0102', 1)") }
            #expect(throws: DatabaseError.self) { try database.firstRow("SELECT arkivator_rowid_in('tekst', 1)") }
            #expect(throws: DatabaseError.self) {
                try database.firstRow("SELECT arkivator_rowid_in(zeroblob(17), 1)")
            }
        }
    }
}

private extension Array where Element == Int {
    func union(_ other: some Sequence<Int>) -> [Int] { Array(Set(self).union(other)).sorted() }
}
