import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator {
    /// A consistent copy of the library database.
    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ta sikkerhetskopi av biblioteksdatabasen. (Back up the library database.)",
            discussion: """
                Kopien er riktig også mens «ingest» kjører, og sjekkes før kommandoen er ferdig. Den tar \
                med metadata, tekst og familien, ikke filene i arkivmappen (ta kopi av den også). \
                Fødselsnumre i kopien er kryptert: ta vare på library.key et annet sted.
                  arkivator backup ~/sikkerhetskopi/arkivator-2024-03-14.sqlite

                Gjenopprette: arkivator restore --backup FIL [--replace]. Legg library.key tilbake i \
                bibliotekmappen først; arkivfiler fra etter kopien tas inn med arkivator reindex --adopt.
                Flytte eller kopiere et bibliotek: flytt eller kopier hele bibliotekmappen (cp -a, mv) \
                mens ingen arkivator bruker den. Stiene i databasen er relative til mappen, så kopien bruker \
                bare sine egne filer. Et arkiv valgt med --archive utenfor mappen følger ikke med.

                (The copy is consistent even while 'ingest' runs and is checked before the command ends. \
                It holds metadata, text and the family, not the archive files. Keep library.key apart. \
                Restore: arkivator restore --backup FILE [--replace], with library.key put back first; \
                archive files from after the backup are taken in with arkivator reindex --adopt. To move \
                or copy a library, move or copy its whole folder while no arkivator uses it: paths are \
                stored relative to it, so a copy uses only its own files.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Ny fil for kopien. (A new file for the copy.)", valueName: "FILE"))
        var file: String

        func run() throws {
            let url = URL(fileURLWithPath: file)
            let count = try LibraryCommand.run(libraryOptions) { library in try library.backup(to: url) }
            Terminal().line(UserMessage(
                nb: "Sikkerhetskopi med \(count) dokument\(count == 1 ? "" : "er") skrevet til \(url.path) og sjekket.",
                en: "Backup with \(count) document\(count == 1 ? "" : "s") written to \(url.path) and checked.").text())
        }
    }
}
