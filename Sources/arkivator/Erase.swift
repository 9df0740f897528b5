import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator {
    /// Removes everything the library holds on this machine.
    struct Erase: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Slett hele biblioteket på denne maskinen. (Erase the whole library on this machine.)",
            discussion: """
                Sletter alle dokumenter (filene overskrives først), papirkurven, databasen, nøkkelen og \
                bibliotekmappen. Kopier som er lastet opp andre steder slettes ikke. Kan ikke angres.
                  arkivator erase --all --yes

                (Removes every document (files overwritten first), the trash, the database, the key and \
                the library folder. Uploaded copies elsewhere are not touched. Cannot be undone.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Flag(name: .long, help: "Alt i biblioteket. (Everything in the library.)")
        var all = false

        @Flag(name: .long, help: "Ja, jeg er sikker. (Yes, I am sure.)")
        var yes = false

        func run() throws {
            let terminal = Terminal()
            guard all, yes else {
                let count = try LibraryCommand.run(libraryOptions) { library in
                    try library.documents.count() + (try library.documents.count(DocumentFilter(trashed: true)))
                }
                terminal.error(UserMessage(
                    nb: "Dette sletter alle \(count) dokumentene i \(libraryOptions.location.directory.path) for godt. Skriv «arkivator erase --all --yes» hvis du er sikker.",
                    en: "This removes all \(count) documents in \(libraryOptions.location.directory.path) for good. Type 'arkivator erase --all --yes' if you are sure."))
                throw ExitCode(1)
            }
            let erased = try LibraryCommand.run(libraryOptions) { library in try library.documents.eraseEverything() }
            terminal.line(UserMessage(
                nb: "Slettet \(erased.documents) dokumenter og \(erased.files) filer, og biblioteket i \(libraryOptions.location.directory.path).",
                en: "Removed \(erased.documents) documents and \(erased.files) files, and the library in \(libraryOptions.location.directory.path).").text())
        }
    }
}
