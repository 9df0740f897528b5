import ArgumentParser
import ArkivatorApp
import ArkivatorCore
import Foundation

extension Arkivator {
    /// The laboratory values of the household's letters, as a table, CSV or JSON.
    struct Labs: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "labs",
            abstract: "Vis prøvesvarene i brevene: analyse, verdi, enhet, referanse. (List the lab values in the letters.)",
            discussion: """
                Fra hvert prøvesvar og hver epikrise med en tabell: prøvedatoen (eller brevets dato),
                personen, analysen (ett navn for de ulike skrivemåtene: «HbA1c» for «Glykert hemoglobin»),
                verdien slik den står, enheten, referanseområdet, H/L, og «?» der et tall i raden kan være
                feillest: sjekk det mot sidebildet før du stoler på det. Siste kolonne er brevets id.
                (From every lab result and discharge letter with a table: the sampling date (else the
                letter's date), the person, the analysis under one name, the value as printed, the unit,
                the reference range, H/L, and «?» where a number in the row may be misread.)

                --csv skriver semikolon-separert tekst med desimalkomma, som et regneark på norsk leser
                som tall. (--csv writes semicolon-separated text with decimal commas.)

                --fhir skriver en FHIR R4-samling (Bundle) av Observation-ressurser som et
                journalsystem kan lese: analysen med LOINC-kode der den er kjent, verdien med
                UCUM-enhet, referanseområdet, H/L og prøvedatoen. Personen står med navn og
                fødselsdato, aldri fødselsnummer. En usikker verdi ingen har sjekket er merket
                «preliminary». (--fhir writes a FHIR R4 Bundle of Observations; the person by name
                and birth date, never the national ID number.)

                Eksempler / examples:
                  arkivator labs --person Kari
                  arkivator labs --person Kari --analysis HbA1c --csv > kari-hba1c.csv
                  arkivator labs --json
                  arkivator labs --person Kari --fhir > kari-prøvesvar.json
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Option(name: .long, help: ArgumentHelp("Bare verdiene til denne personen (del av navnet holder). (Only this person.)", valueName: "NAME"))
        var person: String?

        @Option(name: .long, help: ArgumentHelp("Bare denne analysen, som «HbA1c» eller «Kreatinin». (Only this analysis.)", valueName: "NAME"))
        var analysis: String?

        @Flag(name: .long, help: "Skriv verdiene som CSV (semikolon, desimalkomma). (Print CSV.)")
        var csv = false

        @Flag(name: .long, help: "Skriv verdiene som JSON. (Print JSON.)")
        var json = false

        @Flag(name: .long, help: "Skriv verdiene som en FHIR R4 Bundle. (Print a FHIR R4 Bundle.)")
        var fhir = false

        func validate() throws {
            if [csv, json, fhir].filter({ $0 }).count > 1 {
                throw ValidationError("Velg én av --csv, --json og --fhir. (Choose one of --csv, --json and --fhir.)")
            }
        }

        func run() throws {
            let household = try LibraryCommand.household(libraryOptions)
            let terminal = Terminal()
            if fhir {
                let (readings, births) = try LibraryCommand.reporting {
                    (try household.labReadings(person: person, analysis: analysis),
                     Dictionary(try household.library.familyMembers().compactMap { m in m.birthDate.map { (m.name, $0) } },
                                uniquingKeysWith: { a, _ in a }))
                }
                return terminal.line(LabFHIR.bundle(readings, birthDates: births))
            }
            let values = try LibraryCommand.reporting { try household.labs(person: person, analysis: analysis) }
            if json { return terminal.line(LibraryCommand.json(values)) }
            if csv { return terminal.line(Self.csv(values)) }
            guard !values.isEmpty else {
                return terminal.line(UserMessage(nb: "Fant ingen prøvesvar.", en: "No lab values found.").text())
            }
            for line in FamilyCommand.table(values.map { value in
                [value.sampled, ShownName.of(value.person ?? ShownPerson.unknown.text()), ShownName.of(value.analysis),
                 ShownName.of(value.value), ShownName.of(value.unit ?? ""), ShownName.of(value.range ?? ""), value.flag ?? "",
                 value.doubtful ? "?" : "", value.letter]
            }) { terminal.line(line) }
        }

        /// Semicolon-separated, a header first; a field with `;`, `"` or a line break in quotes.
        static func csv(_ values: [LabValue]) -> String {
            func field(_ text: String) -> String {
                let clean = StoredField.visible(text)
                return clean.contains(where: { $0 == ";" || $0 == "\"" }) ? "\"" + clean.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : clean
            }
            let header = "prøvedato;person;analyse;verdi;enhet;referanse;flagg;usikker;brev"
            return ([header] + values.map { value in
                [value.sampled, value.person ?? "", value.analysis, value.value, value.unit ?? "", value.range ?? "", value.flag ?? "",
                 value.doubtful ? "ja" : "", value.letter].map(field).joined(separator: ";")
            }).joined(separator: "\n")
        }
    }
}
