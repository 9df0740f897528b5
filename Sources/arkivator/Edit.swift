import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorPipeline
import Foundation

extension Arkivator {
    /// Corrects a document's metadata; its files follow.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rett tittel, type, person, dato eller avsender. (Correct a document.)",
            discussion: """
                Filene får nytt navn og flyttes til personens mappe, og .docx-filen skrives på nytt. \
                Endres datoen eller typen, følger tittelen med.

                (The files are renamed and moved to the person's folder and the .docx is written again. \
                The title follows a new date or type.)

                Eksempler / examples:
                  arkivator edit 3fa2b1 --person "Kari Nordmann"
                  arkivator edit 3fa2b1 --date 2024-03-14 --type epikrise
                  arkivator edit 3fa2b1 --title "Epikrise etter kneoperasjon"
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Dokumentets id. (The document's id.)", valueName: "ID"))
        var id: String

        @Option(name: .long, help: ArgumentHelp("Ny tittel (datoen settes foran om den mangler). (New title.)", valueName: "TITLE"))
        var title: String?

        @Option(name: .long, help: ArgumentHelp(
            "Ny type: innkalling, epikrise, lab-svar, resept, henvisning, vedtak eller annet. (New type.)", valueName: "TYPE"),
                transform: TypeArgument.parse)
        var type: DocumentType?

        @Option(name: .long, help: ArgumentHelp("Personen brevet gjelder. (The person.)", valueName: "NAME"))
        var person: String?

        @Option(name: .long, help: ArgumentHelp("Brevets dato, som 2024-03-05. (The letter's date.)", valueName: "YYYY-MM-DD"),
                transform: DateArgument.parse("--date"))
        var date: CalendarDate?

        @Option(name: .long, help: ArgumentHelp("Avsender. (Sender.)", valueName: "NAME"))
        var institution: String?

        func run() throws {
            let changes = DocumentChanges(title: title, type: type, person: person, date: date, institution: institution)
            let document = try LibraryCommand.run(libraryOptions) { library in
                try library.edit(id, changes, programVersion: ArkivatorVersion.current)
            }
            let terminal = Terminal()
            terminal.line(UserMessage(nb: "Endret: \(document.title)", en: "Changed: \(document.title)").text())
            for file in document.files { terminal.line("  " + file.path) }
        }
    }
}
