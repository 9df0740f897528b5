import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator {
    /// The household: the people letters are sorted by. Fødselsnumre are stored encrypted.
    struct Family: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "family",
            abstract: "Familiemedlemmene som brevene sorteres etter. (The family members letters are sorted by.)",
            discussion: """
                Fødselsnummeret lagres kryptert med bibliotekets nøkkel (library.key i biblioteket, \
                eller $ARKIVATOR_KEY), og vises bare som DDMMÅÅ •••••. Ta vare på nøkkelen et annet sted \
                enn sikkerhetskopien av biblioteket: uten den kan fødselsnumrene ikke leses igjen.

                (The fødselsnummer is stored encrypted with the library key (library.key in the library, \
                or $ARKIVATOR_KEY) and shown only as DDMMYY •••••. Keep the key apart from backups of \
                the library: without it the numbers cannot be read again.)

                Eksempler / examples:
                  arkivator family add "Kari Nordmann" --born 1987-01-26
                  arkivator family import family.json
                  arkivator family list
                  arkivator family remove "Kari Nordmann"
                """,
            subcommands: [Add.self, List.self, Remove.self, Import.self])
    }
}

extension Arkivator.Family {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Legg til et familiemedlem. (Add a family member.)",
            discussion: """
                Fødselsnummeret sjekkes (kontrollsifre og dato), og fødselsdatoen hentes fra det. \
                Et tall på kommandolinjen kan havne i skallhistorikken; «family import» fra en fil unngår det.

                (The fødselsnummer is checked and gives the birth date. A number on the command line \
                can end up in the shell history; 'family import' from a file avoids that.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Navnet, for eksempel \"Kari Nordmann\". (The name.)", valueName: "NAME"))
        var name: String

        @Option(name: .long, help: ArgumentHelp("Fødselsdato. (Birth date.)", valueName: "YYYY-MM-DD"))
        var born: String?

        @Option(name: .long, help: ArgumentHelp("Fødselsnummer, 11 sifre; lagres kryptert. (Stored encrypted.)", valueName: "NNNNNNNNNNN"))
        var fnr: String?

        func run() throws {
            let member = try FamilyCommand.run(libraryOptions) { store in
                try store.add(name: name, birthDate: born, fodselsnummer: fnr)
            }
            Terminal().line(UserMessage(
                nb: "La til \(member.name) (id \(member.id))\(FamilyCommand.details(member)).",
                en: "Added \(member.name) (id \(member.id))\(FamilyCommand.details(member)).").text())
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Vis familiemedlemmene. (List the family members.)")

        @OptionGroup var libraryOptions: LibraryOptions

        @Flag(name: .long, help: "Skriv listen som JSON. (Print JSON.)")
        var json = false

        func run() throws {
            let members = try FamilyCommand.run(libraryOptions) { try $0.list() }
            let terminal = Terminal()
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                terminal.line(String(decoding: try encoder.encode(members), as: UTF8.self))
                return
            }
            guard !members.isEmpty else {
                terminal.line(UserMessage(
                    nb: "Ingen familiemedlemmer ennå. Legg til med: arkivator family add NAVN --born ÅÅÅÅ-MM-DD",
                    en: "No family members yet. Add one with: arkivator family add NAME --born YYYY-MM-DD").text())
                return
            }
            let header = UserMessage(nb: "ID|Navn|Født|Fødselsnummer", en: "ID|Name|Born|Fødselsnummer").text()
                .split(separator: "|").map(String.init)
            let rows = members.map { [String($0.id), $0.name, $0.birthDate ?? "–", $0.maskedFnr ?? "–"] }
            for line in FamilyCommand.table([header] + rows) { terminal.line(line) }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fjern et familiemedlem. (Remove a family member.)")

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Navnet eller id-en fra «family list». (The name or id.)", valueName: "NAME|ID"))
        var nameOrID: String

        func run() throws {
            let removed = try FamilyCommand.run(libraryOptions) { try $0.remove(nameOrID: nameOrID) }
            Terminal().line(UserMessage(nb: "Fjernet \(removed.name) (id \(removed.id)).",
                                        en: "Removed \(removed.name) (id \(removed.id)).").text())
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Les familiemedlemmer fra en JSON-fil. (Import family members from a JSON file.)",
            discussion: """
                Formen er / the form is:
                  {"members": [{"name": "Kari Nordmann", "birthDate": "1987-01-26", "personnummer": "…"}]}
                Nye navn legges til; kjente navn får fødselsdato og -nummer fra filen. Én feil avviser \
                hele filen. (New names are added; known names get the file's birth date and number. One \
                error refuses the file.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("JSON-filen. (The JSON file.)", valueName: "FILE"))
        var file: String

        func run() throws {
            let result = try FamilyCommand.run(libraryOptions) { try $0.importFile(URL(fileURLWithPath: file)) }
            Terminal().line(UserMessage(
                nb: "Importerte familien: \(result.added) nye, \(result.updated) oppdatert, \(result.unchanged) uendret.",
                en: "Imported the family: \(result.added) new, \(result.updated) updated, \(result.unchanged) unchanged.").text())
        }
    }
}

/// What the family subcommands share: opening the store and printing errors.
enum FamilyCommand {
    /// Runs `body` on the library's family; any error becomes one plain line on standard error
    /// and exit code 1.
    static func run<T>(_ options: LibraryOptions, _ body: (FamilyStore) throws -> T) throws -> T {
        do {
            return try body(try FamilyStore.open(library: options.location))
        } catch {
            Terminal().error(UserMessage(error: error))
            throw ExitCode(1)
        }
    }

    /// `, født 1987-01-26, fnr 260187 •••••`
    static func details(_ member: FamilyMemberSummary) -> String {
        var text = ""
        if let born = member.birthDate {
            text += UserMessage(nb: ", født \(born)", en: ", born \(born)").text()
        }
        if let masked = member.maskedFnr {
            text += UserMessage(nb: ", fødselsnummer \(masked) lagret kryptert",
                                en: ", fødselsnummer \(masked) stored encrypted").text()
        }
        return text
    }

    /// Left-aligned columns, two spaces apart.
    static func table(_ rows: [[String]]) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }
}
