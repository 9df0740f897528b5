import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

@Suite struct FamilyStoreTests {
    // Made-up people; the numbers are computed, not anyone's.
    let kariNumber = TestNumber.valid("260187")            // 1987-01-26
    let olaNumber = TestNumber.valid("030379")             // 1979-03-03
    let dNumber = TestNumber.valid("420795")               // D-number: 1995-07-02
    let childNumber = TestNumber.valid("150312", from: 500) // 2012-03-15

    @Test func addListRemoveRoundTrip() throws {
        try withTemporaryDirectory { dir in
            let (store, _) = try openStore(dir)
            #expect(try store.list().isEmpty)
            let kari = try store.add(name: "  Kari   Nordmann ", fodselsnummer: kariNumber)
            #expect(kari.name == "Kari Nordmann" && kari.birthDate == "1987-01-26")
            #expect(kari.maskedFnr == "260187 •••••")
            let ola = try store.add(name: "Ola Nordmann", birthDate: "1979-03-03", fodselsnummer: olaNumber)
            let baby = try store.add(name: "Åse Nordmann", birthDate: "2012-03-15")
            let list = try store.list()
            #expect(list.map(\.name) == ["Kari Nordmann", "Ola Nordmann", "Åse Nordmann"])
            #expect(list.map(\.maskedFnr) == ["260187 •••••", "030379 •••••", nil])
            #expect(list.last == baby)

            let profiles = try store.profiles()
            #expect(profiles.first { $0.name == "Kari Nordmann" }?.fodselsnummer?.digits == kariNumber)
            #expect(profiles.first { $0.name == "Ola Nordmann" }?.birthDate == "1979-03-03")
            #expect(profiles.first { $0.name == "Åse Nordmann" }?.fodselsnummer == nil)

            #expect(try store.remove(nameOrID: "kari nordmann").id == kari.id)
            #expect(try store.remove(nameOrID: String(ola.id)).name == "Ola Nordmann")
            #expect(try store.list().map(\.name) == ["Åse Nordmann"])
            let missing = #expect(throws: FamilyError.self) { try store.remove(nameOrID: "Kari Nordmann") }
            #expect(missing?.code == .notFound)
            #expect(missing?.userMessage.norwegian.contains("arkivator family list") == true)
        }
    }

    @Test func dNumbersAndChildrenGetTheirBirthDates() throws {
        try withTemporaryDirectory { dir in
            let (store, _) = try openStore(dir)
            #expect(try store.add(name: "Leon", fodselsnummer: dNumber).birthDate == "1995-07-02")
            #expect(try store.add(name: "Mia", fodselsnummer: childNumber).birthDate == "2012-03-15")
            #expect(try store.list().map(\.maskedFnr) == ["420795 •••••", "150312 •••••"])
        }
    }

    @Test func duplicateNamesAreRefusedWhateverTheCase() throws {
        try withTemporaryDirectory { dir in
            let (store, _) = try openStore(dir)
            try store.add(name: "Kari Nordmann")
            let error = #expect(throws: FamilyError.self) { try store.add(name: "KARI NORDMANN", fodselsnummer: kariNumber) }
            #expect(error?.code == .duplicateName)
            #expect(error?.userMessage.norwegian.contains("finnes allerede") == true)
            #expect(error?.userMessage.english.contains("already") == true)
            #expect(try store.list().count == 1)
        }
    }

    @Test(arguments: ["wrong control digit", "ten digits", "impossible date", "letters"])
    func invalidNumbersAreExplainedAndNothingIsStored(_ kind: String) throws {
        let number = switch kind {
        case "wrong control digit": TestNumber.wrongControl(kariNumber)
        case "ten digits": String(kariNumber.dropLast())
        case "impossible date": TestNumber.valid("320187")   // day 32, valid control digits
        default: "2601871OO71"
        }
        try withTemporaryDirectory { dir in
            let (store, database) = try openStore(dir)
            let error = #expect(throws: FamilyError.self) { try store.add(name: "Kari", fodselsnummer: number) }
            #expect(error?.code == .invalidFodselsnummer)
            let message = try #require(error?.userMessage)
            let expected = switch kind {
            case "wrong control digit": ("Kontrollsifrene", "control digits")
            case "impossible date": ("ingen gyldig dato", "not a valid date")
            case "ten digits": ("har 10", "has 10")
            default: ("11 sifre", "11 digits")
            }
            #expect(message.norwegian.contains(expected.0) && message.english.contains(expected.1), "\(message)")
            #expect(message.norwegian.contains("Ingenting ble lagret"))
            for text in [message.norwegian, message.english, String(describing: error)] {
                #expect(!text.contains(number) && !text.contains(String(number.prefix(6))), "no digits in \(text)")
            }
            #expect(try store.list().isEmpty)
            #expect(try database.firstRow("SELECT count(*) FROM family")?[0].int == 0)
        }
    }

    @Test func birthDatesAreCheckedAndMustAgreeWithTheNumber() throws {
        try withTemporaryDirectory { dir in
            let (store, _) = try openStore(dir)
            for bad in ["26.01.1987", "1987-1-26", "1987-02-30", "1900-02-29", "år-01-01", "9999-01-01", "1700-01-01"] {
                let error = #expect(throws: FamilyError.self, "\(bad)") { try store.add(name: "Kari", birthDate: bad) }
                #expect(error?.code == .invalidBirthDate)
            }
            #expect(try store.add(name: "Skuddår", birthDate: "2000-02-29").birthDate == "2000-02-29")
            let mismatch = #expect(throws: FamilyError.self) {
                try store.add(name: "Kari", birthDate: "1987-01-27", fodselsnummer: kariNumber)
            }
            #expect(mismatch?.code == .birthDateMismatch)
            #expect(mismatch?.userMessage.norwegian.contains("1987-01-26") == true)
            #expect(try store.list().count == 1)
        }
    }

    @Test func aNumberTypedAsTheNameIsRefusedWithoutRepeatingIt() throws {
        try withTemporaryDirectory { dir in
            let (store, _) = try openStore(dir)
            for name in [kariNumber, "Kari \(kariNumber)", "", "   ", "12"] {
                let error = #expect(throws: FamilyError.self, "\(name)") { try store.add(name: name) }
                #expect(error?.code == .invalidName)
                #expect(error.map { !$0.description.contains(kariNumber) } == true)
            }
            let notFound = #expect(throws: FamilyError.self) { try store.remove(nameOrID: kariNumber) }
            #expect(notFound.map { !$0.userMessage.norwegian.contains(kariNumber) } == true)
            #expect(try store.list().isEmpty)
        }
    }

    @Test func importAddsThenUpdatesByName() throws {
        try withTemporaryDirectory { dir in
            let (store, _) = try openStore(dir)
            try store.add(name: "Ola Nordmann", birthDate: "1979-03-03")
            let file = dir.appendingPathComponent("family.json")
            try writeFamily(file, members: [
                ["name": "Kari Nordmann", "birthDate": "1987-01-26", "personnummer": kariNumber],
                ["name": "ola nordmann", "personnummer": olaNumber],
                ["name": "Mia Nordmann", "birthDate": "2012-03-15"],
                ["name": "Leon Nordmann", "personnummer": dNumber, "birthDate": NSNull()],
            ])
            let first = try store.importFile(file)
            #expect(first == FamilyImportResult(added: 3, updated: 1, unchanged: 0))
            let list = try store.list()
            #expect(list.map(\.name) == ["Kari Nordmann", "Leon Nordmann", "Mia Nordmann", "Ola Nordmann"])
            #expect(list.map(\.maskedFnr) == ["260187 •••••", "420795 •••••", nil, "030379 •••••"])
            #expect(list.map(\.birthDate) == ["1987-01-26", "1995-07-02", "2012-03-15", "1979-03-03"])

            #expect(try store.importFile(file) == FamilyImportResult(added: 0, updated: 0, unchanged: 4))

            try writeFamily(file, members: [
                ["name": "Mia Nordmann", "personnummer": childNumber],
                ["name": "Kari Nordmann"],
            ])
            #expect(try store.importFile(file) == FamilyImportResult(added: 0, updated: 1, unchanged: 1))
            let profiles = try store.profiles()
            #expect(profiles.first { $0.name == "Mia Nordmann" }?.fodselsnummer?.digits == childNumber)
            #expect(profiles.first { $0.name == "Kari Nordmann" }?.fodselsnummer?.digits == kariNumber, "kept")
            #expect(profiles.count == 4)
        }
    }

    @Test func aBadImportFileStoresNothingAndSaysWhy() throws {
        try withTemporaryDirectory { dir in
            let (store, _) = try openStore(dir)
            let file = dir.appendingPathComponent("family.json")
            let wrong = TestNumber.wrongControl(olaNumber)
            try writeFamily(file, members: [
                ["name": "Kari Nordmann", "personnummer": kariNumber],
                ["name": "Ola Nordmann", "personnummer": wrong],
            ])
            let error = #expect(throws: FamilyError.self) { try store.importFile(file) }
            #expect(error?.code == .invalidFodselsnummer)
            let text = try #require(error?.userMessage.norwegian)
            #expect(text.contains("medlem nr. 2") && text.contains("Ola Nordmann") && text.contains("Ingen ble importert"), "\(text)")
            #expect(!text.contains(wrong) && !text.contains(kariNumber))
            #expect(try store.list().isEmpty)

            let cases: [(String, FamilyError.Code)] = [
                ("not json", .importInvalid),
                (#"{"address": ["Storgata 1"]}"#, .importInvalid),
                (#"{"members": [{"birthDate": "1987-01-26"}]}"#, .importInvalid),
                (#"{"members": [{"name": "Kari", "personnummer": 26018710071}]}"#, .importInvalid),
                (#"{"members": [{"name": "Kari"}, {"name": "KARI"}]}"#, .importInvalid),
                (#"{"members": [{"name": "Kari", "birthDate": "1987-13-01"}]}"#, .invalidBirthDate),
            ]
            for (json, code) in cases {
                try Data(json.utf8).write(to: file)
                let error = #expect(throws: FamilyError.self, "\(json)") { try store.importFile(file) }
                #expect(error?.code == code, "\(json): \(String(describing: error))")
                #expect(error.map { !$0.description.contains("26018710071") } == true)
            }
            let missing = #expect(throws: FamilyError.self) { try store.importFile(dir.appendingPathComponent("finnes-ikke.json")) }
            #expect(missing?.code == .importUnreadable)
            #expect(try store.list().isEmpty)
        }
    }

    @Test func theDigitsNeverReachTheDiskOrTheList() throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent(Database.fileName)
            let wal = URL(fileURLWithPath: file.path + "-wal")
            let numbers = [kariNumber, olaNumber, dNumber]
            do {
                let (store, database) = try openStore(dir)
                try store.add(name: "Kari Nordmann", fodselsnummer: kariNumber)
                try store.add(name: "Ola Nordmann", fodselsnummer: "\(olaNumber.prefix(6)) \(olaNumber.suffix(5))")
                let json = dir.appendingPathComponent("family.json")
                try writeFamily(json, members: [["name": "Leon Nordmann", "personnummer": dNumber]])
                _ = try store.importFile(json)
                try FileManager.default.removeItem(at: json)

                // While open, the new pages are in the -wal file.
                let walBytes = try Data(contentsOf: wal)
                #expect(walBytes.contains("Kari Nordmann"), "the right file was read")
                let listed = try store.list()
                let encoded = String(decoding: try JSONEncoder().encode(listed), as: UTF8.self)
                let described = listed.map { "\($0)" }.joined() + (try store.profiles()).map { "\($0.fodselsnummer as Any)" }.joined()
                for number in numbers {
                    #expect(!walBytes.contains(number))
                    #expect(!(try Data(contentsOf: file)).contains(number))
                    #expect(!encoded.contains(number) && !described.contains(number))
                }
                let sealed = try database.rows("SELECT fnr_sealed FROM family").compactMap { $0[0].data }
                #expect(sealed.count == 3 && sealed.allSatisfy { $0.count == 12 + 11 + 16 }, "nonce + ciphertext + tag")
                #expect(Set(sealed).count == 3)
                try database.checkpoint()
            }
            let bytes = try Data(contentsOf: file)
            #expect(bytes.contains("Kari Nordmann"))
            for number in numbers { #expect(!bytes.contains(number)) }
        }
    }

    @Test func aWrongKeyCannotOpenTheNumbers() throws {
        try withTemporaryDirectory { dir in
            do {
                let (store, _) = try openStore(dir)
                try store.add(name: "Kari Nordmann", fodselsnummer: kariNumber)
                try store.add(name: "Mia Nordmann", birthDate: "2012-03-15")
            }
            let (stranger, _) = try openStore(dir, key: LibraryKey.generate())
            let error = #expect(throws: FamilyError.self) { try stranger.profiles() }
            #expect(error?.code == .wrongKey)
            #expect(error?.userMessage.norwegian.contains("library.key") == true)
            #expect(error?.userMessage.english.contains("ARKIVATOR_KEY") == true)
            #expect(error.map { !$0.description.contains(kariNumber) } == true)
            #expect(throws: FamilyError.self) { try stranger.list() }
            // Sealing a new number under another key would mix keys: refused.
            let mixing = #expect(throws: FamilyError.self) { try stranger.add(name: "Ola", fodselsnummer: olaNumber) }
            #expect(mixing?.code == .wrongKey)
            // Work that needs no number still works.
            #expect(try stranger.remove(nameOrID: "Mia Nordmann").name == "Mia Nordmann")
            // The right key still opens it.
            let (owner, _) = try openStore(dir)
            #expect(try owner.profiles().map { $0.fodselsnummer?.digits } == [kariNumber])
        }
    }

    @Test func aSealedNumberBelongsToItsMember() throws {
        try withTemporaryDirectory { dir in
            let (store, database) = try openStore(dir)
            try store.add(name: "Kari Nordmann", fodselsnummer: kariNumber)
            try store.add(name: "Ola Nordmann")
            // Copying Kari's sealed number onto Ola's row does not give Ola her number.
            try database.execute("""
                UPDATE family SET fnr_sealed = (SELECT fnr_sealed FROM family WHERE name = 'Kari Nordmann')
                WHERE name = 'Ola Nordmann'
                """)
            let error = #expect(throws: FamilyError.self) { try store.profiles() }
            #expect(error?.code == .wrongKey && error?.userMessage.norwegian.contains("Ola Nordmann") == true)
        }
    }

    private func writeFamily(_ url: URL, members: [[String: Any]]) throws {
        let object: [String: Any] = ["address": ["Storgata 1", "0155 Oslo"], "members": members]
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]).write(to: url)
    }
}
