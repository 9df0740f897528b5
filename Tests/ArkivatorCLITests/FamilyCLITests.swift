import Foundation
import TestSupport
import Testing

/// `arkivator family …` as a user runs it, against a library in a temporary folder.
@Suite struct FamilyCLITests {
    /// A made-up fødselsnummer: `ddmmyy`, the first individual number from `from` that has
    /// control digits (mod 11, as the population register computes them).
    static func number(_ ddmmyy: String, from individual: Int = 100) -> String {
        let w1 = [3, 7, 6, 1, 8, 9, 4, 5, 2], w2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]
        func control(_ digits: [Int], _ weights: [Int]) -> Int? {
            let k = (11 - zip(digits, weights).reduce(0) { $0 + $1.0 * $1.1 } % 11) % 11
            return k == 10 ? nil : k
        }
        for candidate in individual...999 {
            let first9 = ddmmyy.compactMap(\.wholeNumberValue) + [candidate / 100, candidate / 10 % 10, candidate % 10]
            if let k1 = control(first9, w1), let k2 = control(first9 + [k1], w2) {
                return (first9 + [k1, k2]).map(String.init).joined()
            }
        }
        return ""
    }

    let kari = Self.number("260187")
    let ola = Self.number("030379")

    func family(_ arguments: [String], library: URL, language: String = "nb_NO.UTF-8") throws -> CLI.Output {
        try CLI.run(["family"] + arguments + ["--library", library.path],
                    environment: ["ARKIVATOR_KEY": nil, "ARKIVATOR_LIBRARY": nil, "LANG": language])
    }

    @Test func addAndListShowOnlyTheMaskedNumber() throws {
        try withTemporaryDirectory { dir in
            let added = try family(["add", "Kari Nordmann", "--fnr", kari], library: dir)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.contains("Kari Nordmann") && added.stdout.contains("260187 •••••"))
            #expect(try family(["add", "Ola Nordmann", "--born", "1979-03-03"], library: dir).status == 0)

            let list = try family(["list"], library: dir)
            #expect(list.status == 0, "\(list.stderr)")
            #expect(list.lines.count == 3, "a header and two members: \(list.stdout)")
            #expect(list.lines[0].contains("Navn") && list.lines[0].contains("Født"))
            let kariLine = try #require(list.lines.first { $0.contains("Kari Nordmann") })
            #expect(kariLine.contains("1987-01-26") && kariLine.contains("260187 •••••"))
            #expect(list.lines.first { $0.contains("Ola Nordmann") }?.contains("1979-03-03") == true)

            let json = try family(["list", "--json"], library: dir)
            #expect(json.status == 0)
            let members = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(members.count == 2)
            #expect(members.first { $0["name"] as? String == "Kari Nordmann" }?["maskedFnr"] as? String == "260187 •••••")
            #expect(members.first { $0["name"] as? String == "Ola Nordmann" }?["maskedFnr"] is NSNull)

            for output in [added, list, json] {
                #expect(!output.stdout.contains(kari) && !output.stderr.contains(kari))
            }
            let english = try family(["list"], library: dir, language: "en_GB.UTF-8")
            #expect(english.lines.first?.contains("Name") == true && english.lines.first?.contains("Born") == true)
        }
    }

    @Test(arguments: [
        ("wrong control digit", "Kontrollsifrene"),
        ("ten digits", "11 sifre, men har 10"),
        ("impossible date", "ingen gyldig dato"),
    ])
    func anInvalidNumberExitsOneAndSaysWhy(_ kind: String, _ expected: String) throws {
        let bad = switch kind {
        case "wrong control digit": String(kari.dropLast()) + String(((kari.last?.wholeNumberValue ?? 0) + 1) % 10)
        case "ten digits": String(kari.dropLast())
        default: Self.number("320187")
        }
        try withTemporaryDirectory { dir in
            let output = try family(["add", "Kari Nordmann", "--fnr", bad], library: dir)
            #expect(output.status == 1)
            #expect(output.stdout.isEmpty)
            let lines = output.stderr.split(separator: "\n")
            #expect(lines.count == 1, "one plain line: \(output.stderr)")
            #expect(output.stderr.contains(expected), "\(output.stderr)")
            #expect(!output.stderr.contains(bad) && !output.stderr.contains("Error:"))
            let list = try family(["list", "--json"], library: dir)
            #expect(list.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[\n\n]"
                    || list.stdout.filter { !$0.isWhitespace } == "[]", "nothing stored: \(list.stdout)")
        }
    }

    @Test func importThenRemove() throws {
        try withTemporaryDirectory { dir in
            let file = dir.appendingPathComponent("family.json")
            let object: [String: Any] = [
                "address": ["Storgata 1", "0155 Oslo"],
                "members": [
                    ["name": "Kari Nordmann", "birthDate": "1987-01-26", "personnummer": kari],
                    ["name": "Ola Nordmann", "personnummer": ola],
                    ["name": "Mia Nordmann", "birthDate": "2012-03-15"],
                ],
            ]
            try JSONSerialization.data(withJSONObject: object).write(to: file)
            let imported = try family(["import", file.path], library: dir)
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout.contains("3 nye"), "\(imported.stdout)")
            let again = try family(["import", file.path], library: dir)
            #expect(again.stdout.contains("0 nye") && again.stdout.contains("3 uendret"), "\(again.stdout)")

            let list = try family(["list"], library: dir)
            #expect(list.lines.count == 4)
            #expect(list.stdout.contains("030379 •••••") && !list.stdout.contains(ola))

            let removed = try family(["remove", "ola nordmann"], library: dir)
            #expect(removed.status == 0 && removed.stdout.contains("Fjernet Ola Nordmann"), "\(removed.stderr)")
            let id = try #require(try family(["list"], library: dir).lines.first { $0.contains("Mia") }?
                .split(separator: " ").first.map(String.init))
            #expect(try family(["remove", id], library: dir).status == 0)
            let left = try family(["list"], library: dir)
            #expect(left.lines.count == 2 && left.stdout.contains("Kari Nordmann"), "\(left.stdout)")

            let missing = try family(["remove", "Per"], library: dir)
            #expect(missing.status == 1 && missing.stderr.contains("Fant ingen"))
            let broken = dir.appendingPathComponent("broken.json")
            try Data("{\"members\": [{\"name\": \"Per\", \"personnummer\": \"\(String(kari.dropLast()))\"}]}".utf8).write(to: broken)
            let refused = try family(["import", broken.path], library: dir)
            #expect(refused.status == 1 && refused.stderr.contains("Ingen ble importert"), "\(refused.stderr)")
            #expect(!refused.stderr.contains(String(kari.dropLast())))
        }
    }

    @Test func theLibraryIsPrivate() throws {
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            #expect(try family(["add", "Kari Nordmann", "--fnr", kari], library: library).status == 0)
            for (path, mode) in [(library.path, 0o700), (library.path + "/arkivator.sqlite", 0o600),
                                 (library.path + "/library.key", 0o600)] {
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == mode, "\(path)")
            }
            let database = try Data(contentsOf: library.appendingPathComponent("arkivator.sqlite"))
            #expect(database.range(of: Data(kari.utf8)) == nil)
        }
    }

    @Test func helpIsNorwegianFirst() throws {
        let help = try CLI.run(["family", "--help"])
        for subcommand in ["add", "list", "remove", "import"] { #expect(help.stdout.contains(subcommand)) }
        #expect(help.stdout.contains("Legg til et familiemedlem. (Add a family member.)"))
        let add = try CLI.run(["family", "add", "--help"])
        for option in ["--born", "--fnr", "--library"] { #expect(add.stdout.contains(option)) }
        #expect(try CLI.run(["--help"]).stdout.contains("family"))
    }
}
