import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// Removing a member can be undone exactly, and an id is never given to anyone else.
@Suite struct FamilyRemovalTests {
    let kariNumber = TestNumber.valid("260187")
    let olaNumber = TestNumber.valid("030379")

    @Test func idsAreNeverReused() throws {
        try withTemporaryDirectory { dir in
            let (store, _) = try openStore(dir)
            let kari = try store.add(name: "Kari")
            let ola = try store.add(name: "Ola")
            try store.remove(nameOrID: String(ola.id))
            let mia = try store.add(name: "Mia")
            #expect(mia.id > ola.id, "the newest member's id went with them")
            try store.remove(nameOrID: "Kari")
            try store.remove(nameOrID: "Mia")
            #expect(try store.add(name: "Leon").id > mia.id)
            #expect(kari.id < ola.id)
        }
    }

    @Test func restorePutsTheMemberBackExactly() throws {
        try withTemporaryDirectory { dir in
            let (store, database) = try openStore(dir)
            let kari = try store.add(name: "Kari Nordmann", fodselsnummer: kariNumber)
            let ola = try store.add(name: "Ola Nordmann", fodselsnummer: olaNumber)
            let created = try database.firstRow("SELECT created_at FROM family WHERE id = ?", [kari.id])?[0].string

            let removed = try store.remove(nameOrID: "kari nordmann")
            #expect(removed.id == kari.id && removed.name == "Kari Nordmann" && removed.birthDate == "1987-01-26")
            #expect(removed.hadFodselsnummer)
            #expect(try store.list().map(\.name) == ["Ola Nordmann"])
            let mia = try store.add(name: "Mia Nordmann")

            let back = try store.restore(removed)
            #expect(back == kari, "same id, name, birth date and masked number")
            #expect(try store.list().map(\.id) == [kari.id, mia.id, ola.id], "by name")
            #expect(try store.profiles().first { $0.name == "Kari Nordmann" }?.fodselsnummer?.digits == kariNumber)
            #expect(try database.firstRow("SELECT created_at FROM family WHERE id = ?", [kari.id])?[0].string == created)
            #expect(try store.add(name: "Leon").id > mia.id, "a restore gives no id away either")

            let twice = #expect(throws: FamilyError.self) { try store.restore(removed) }
            #expect(twice?.code == .duplicateName)
        }
    }

    @Test func restoreRefusesANameTakenSince() throws {
        try withTemporaryDirectory { dir in
            let (store, _) = try openStore(dir)
            let removed = try store.remove(nameOrID: String(try store.add(name: "Kari", fodselsnummer: kariNumber).id))
            let again = try store.add(name: "KARI")
            let refused = #expect(throws: FamilyError.self) { try store.restore(removed) }
            #expect(refused?.code == .duplicateName)
            #expect(try store.list().map(\.id) == [again.id])
        }
    }

    @Test func documentsAreTheirsAgainAfterARestore() throws {
        try withLibrary { library, _ throws in
            let kari = try library.family { try $0.add(name: "Kari", fodselsnummer: kariNumber) }
            try library.documents.record(Letters.all)
            let removed = try library.family { try $0.remove(nameOrID: "Kari") }
            #expect(try library.documents.count(DocumentFilter(person: "Kari")) == 3, "letters keep the name they were filed under")
            #expect(try library.family { try $0.restore(removed) }.id == kari.id)
            #expect(try library.familyMembers().map(\.id) == [kari.id])
            #expect(try library.familyProfiles().first?.fodselsnummer?.digits == kariNumber)
        }
    }

    /// A library made before ids were kept (migration 6) keeps its members, ids and numbers.
    @Test func theMigrationKeepsMembersAndTheirIds() throws {
        try withTemporaryDirectory { dir in
            let location = LibraryLocation(directory: dir.appendingPathComponent("bibliotek"))
            let key = try LibraryKey.load(library: location, environment: [:])
            let old = try Database.open(library: location, migrations: Array(Migrations.all.prefix { $0.version <= 4 }))
            let store = FamilyStore(database: old, key: key)
            let kari = try store.add(name: "Kari", fodselsnummer: kariNumber)
            let ola = try store.add(name: "Ola", birthDate: "1979-03-03")
            let mia = try store.add(name: "Mia")
            try store.remove(nameOrID: "Ola")

            #expect(try old.migrate().starts(with: [5, 6]))
            let sql = try old.firstRow("SELECT sql FROM sqlite_schema WHERE name = 'family'")?[0].string ?? ""
            #expect(sql.contains("AUTOINCREMENT"))
            #expect(try store.list() == [FamilyMemberSummary(id: kari.id, name: "Kari", birthDate: "1987-01-26", maskedFnr: "260187 •••••"),
                                         FamilyMemberSummary(id: mia.id, name: "Mia", birthDate: nil, maskedFnr: nil)])
            #expect(try store.profiles().first?.fodselsnummer?.digits == kariNumber)
            try store.remove(nameOrID: "Mia")
            #expect(try store.add(name: "Leon").id > mia.id)
            #expect(ola.id < mia.id)
        }
    }
}
