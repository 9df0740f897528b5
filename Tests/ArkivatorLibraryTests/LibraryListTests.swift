import ArkivatorCore
@testable import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// The library list: its filters, its pages, and that SQLite answers it from the list indexes.
@Suite struct LibraryListTests {
    static let printedOnly = Letters.letter("trykt", "Brev fra Helse Nord", type: .annet, person: nil, institution: "Helse Nord",
                                            date: "2020-01-01", text: "Brev om innkalling til samtale.")

    @Test func withoutPersonListsCountsAndSearches() throws {
        try withLibrary { library, _ throws in
            var printed = Self.printedOnly
            printed.person = "Per Hansen"
            try library.documents.record(Letters.all + [printed])
            let filter = DocumentFilter(withoutPerson: true)
            #expect(Set(try library.documents.list(filter).map(\.id)) == [Letters.kommune.shortID, printed.shortID],
                    "filed to no household member, a name printed in it or not: the letters in Ukjent person/")
            #expect(try library.documents.count(filter) == 2)
            #expect(try library.index.search("kommune", filter: filter).hits.map(\.id) == [Letters.kommune.shortID])
            #expect(try library.index.search("innkalling", filter: filter).hits.map(\.id) == [printed.shortID])
            #expect(try library.documents.count(DocumentFilter(from: CalendarDate(iso: "2021-01-01"), withoutPerson: true)) == 1,
                    "filters combine")
            #expect(try library.documents.count(DocumentFilter(person: "Kari", withoutPerson: true)) == 0)

            _ = try library.documents.delete(Letters.kommune.shortID)
            #expect(try library.documents.count(filter) == 1, "the trash is not listed")
            #expect(try library.documents.count(DocumentFilter(trashed: true, withoutPerson: true)) == 1)
        }
    }

    @Test func aPageAndItsCountAgree() throws {
        try withLibrary { library, _ throws in
            try library.documents.record(Letters.all)
            let first = try library.documents.page(limit: 3)
            #expect(first.total == 7)
            #expect(first.documents.map(\.id) == [Letters.innkalling, Letters.henvisning, Letters.labSvar].map(\.shortID))
            let last = try library.documents.page(limit: 3, offset: 6)
            #expect(last.total == 7 && last.documents.map(\.id) == [Letters.kommune.shortID])
            let kari = try library.documents.page(DocumentFilter(person: "kari"), limit: 2, offset: 1)
            #expect(kari.total == 3 && kari.documents.map(\.id) == [Letters.labSvar, Letters.resept].map(\.shortID))
            #expect(try library.documents.list(DocumentFilter(type: .epikrise)).map(\.id) == [Letters.epikrise.shortID])
            #expect(try library.documents.list(DocumentFilter(waitingForReview: true)).map(\.id) == [Letters.kommune.shortID])
        }
    }

    /// Every list filter the web offers is answered from an index, in the list's order: no walk
    /// through the documents table (its rows hold the letters' text), no sorting of a temporary
    /// table, and the count reads an index alone (the review queue's condition reads the text, so
    /// its index cannot hold it, but holds only the documents that meet it).
    @Test func listsAndCountsWalkTheListIndexes() throws {
        try withLibrary { library, _ throws in
            try library.documents.record(Letters.all)
            let filters: [(String, DocumentFilter)] = [
                ("documents_listed", DocumentFilter()),
                ("documents_listed_by_type", DocumentFilter(type: .epikrise)),
                ("documents_listed", DocumentFilter(from: CalendarDate(iso: "2024-01-01"), to: CalendarDate(iso: "2024-12-31"))),
                ("documents_listed", DocumentFilter(person: "Kari")),
                ("documents_listed", DocumentFilter(institution: "Helfo")),
                ("documents_not_filed", DocumentFilter(withoutPerson: true)),
                ("documents_waiting", DocumentFilter(waitingForReview: true)),
                ("documents_by_member", Access(account: 1, name: "Ola", role: .reader, members: ["Kari"]).narrowed(DocumentFilter())),
                ("documents_listed", Access(account: 1, name: "Ola", role: .reader, members: ["Kari", "Ola"]).narrowed(DocumentFilter())),
            ]
            let database = try Database(readingFrom: library.databaseURL)
            for (index, filter) in filters {
                let list = filter.listQuery(limit: 50, offset: 49_950)
                // The statement's own steps (parent 0), not those of the subquery for the main file.
                let plan = try database.rows("EXPLAIN QUERY PLAN " + list.sql, list.arguments)
                    .filter { $0[1].int == 0 }.compactMap { $0[3].string }
                let walk = try #require(plan.first { $0.contains(" d ") }, "\(plan)")
                #expect(walk.contains("USING INDEX \(index)") || walk.contains("USING COVERING INDEX \(index)"),
                        "\(filter): \(plan)")
                #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(filter): \(plan)")
                let count = filter.countQuery
                let counted = try database.rows("EXPLAIN QUERY PLAN " + count.sql, count.arguments).compactMap { $0[3].string }
                let covered = filter.waitingForReview ? "USING INDEX documents_waiting" : "USING COVERING INDEX"
                #expect(counted.count == 1 && counted.allSatisfy { $0.contains(covered) }, "\(filter): \(counted)")
            }
        }
    }

    @Test func readsSeeEveryCommittedChangeAndCannotWrite() throws {
        try withLibrary { library, _ throws in
            #expect(try library.documents.count() == 0)
            try library.documents.record([Letters.epikrise])
            #expect(try library.documents.count() == 1)
            try library.documents.markReviewed(Letters.epikrise.shortID)
            #expect(try library.documents.count(DocumentFilter(waitingForReview: true)) == 0)
            _ = try library.reindex()
            #expect(try library.index.search("brystsmerter").hits.map(\.id) == [Letters.epikrise.shortID])
            let refused = #expect(throws: DatabaseError.self) { try library.readFamily { try $0.add(name: "Kari") } }
            #expect(refused?.resultCode == 8, "SQLITE_READONLY: \(String(describing: refused))")
            #expect(try library.familyMembers().isEmpty)
        }
    }
}
