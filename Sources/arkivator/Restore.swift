import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator {
    /// Brings a document back from the trash.
    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Hent et dokument tilbake fra papirkurven. (Bring a document back from the trash.)",
            discussion: "Se papirkurven med: arkivator list --trash (See the trash with: arkivator list --trash)")

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Dokumentets id. (The document's id.)", valueName: "ID"))
        var id: String

        func run() throws {
            let document = try LibraryCommand.run(libraryOptions) { library in try library.restore(id) }
            let terminal = Terminal()
            terminal.line(UserMessage(nb: "Hentet tilbake: \(document.title)", en: "Restored: \(document.title)").text())
            for file in document.files { terminal.line("  " + file.path) }
        }
    }
}
