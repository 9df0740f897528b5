import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator {
    /// The library's documents, newest first.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Vis dokumentene, nyeste først. (List the documents, newest first.)",
            discussion: """
                Kolonner: brevdato, type, person, tittel, id. Bruk id-en med show, edit og delete.
                (Columns: letter date, type, person, title, id. Use the id with show, edit and delete.)

                Eksempler / examples:
                  arkivator list --person Kari --type epikrise
                  arkivator list --from 2024-01-01 --to 2024-12-31
                  arkivator list --trash
                """)

        @OptionGroup var libraryOptions: LibraryOptions
        @OptionGroup var filterOptions: FilterOptions

        @Option(name: .long, help: ArgumentHelp("Høyst så mange (standard 50). (At most this many.)", valueName: "N"))
        var limit: Int = 50

        @Flag(name: .long, help: "Vis papirkurven i stedet. (Show the trash instead.)")
        var trash = false

        @Flag(name: .long, help: "Skriv listen som JSON. (Print the list as JSON.)")
        var json = false

        func run() throws {
            var filter = filterOptions.filter
            filter.trashed = trash
            let (documents, total) = try LibraryCommand.run(libraryOptions) { library in
                (try library.documents.list(filter, limit: max(limit, 0)), try library.documents.count(filter))
            }
            let terminal = Terminal()
            if json {
                terminal.line(LibraryCommand.json(documents))
                return
            }
            guard !documents.isEmpty else {
                terminal.line(trash
                    ? UserMessage(nb: "Papirkurven er tom.", en: "The trash is empty.").text()
                    : UserMessage(nb: "Ingen dokumenter her ennå. Les inn brev med: arkivator ingest MAPPE",
                                  en: "No documents here yet. Read letters with: arkivator ingest FOLDER").text())
                return
            }
            for line in LibraryCommand.lines(documents) { terminal.line(line) }
            if total > documents.count {
                terminal.error(UserMessage(nb: "Viser \(documents.count) av \(total). Bruk --limit for flere.",
                                           en: "Showing \(documents.count) of \(total). Use --limit for more."))
            }
        }
    }
}
