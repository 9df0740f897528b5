import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator {
    /// Moves a document to the trash (or removes it for good).
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Legg et dokument i papirkurven. (Move a document to the trash.)",
            discussion: """
                Dokumentet kan hentes tilbake med «arkivator restore ID» i \(Library.trashDays) dager; \
                deretter slettes det. Med --purge overskrives filene og slettes med en gang.

                (The document can be brought back with 'arkivator restore ID' for \(Library.trashDays) days. \
                --purge overwrites and removes the files at once.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Dokumentets id. (The document's id.)", valueName: "ID"))
        var id: String

        @Flag(name: .long, help: "Overskriv og slett filene nå; kan ikke angres. (Overwrite and remove now; cannot be undone.)")
        var purge = false

        func run() throws {
            let document = try LibraryCommand.run(libraryOptions) { library in
                let document = try library.documents.delete(id, purge: purge)
                library.audit.recordAtMachine(.deleted, document: document, detail: purge ? "for godt" : "")
                return document
            }
            Terminal().line(purge
                ? UserMessage(nb: "Slettet for godt: \(document.title) (\(document.files.count) filer overskrevet).",
                              en: "Removed for good: \(document.title) (\(document.files.count) files overwritten).").text()
                : UserMessage(nb: "Lagt i papirkurven: \(document.title). Angre med: arkivator restore \(document.shortID)",
                              en: "Moved to the trash: \(document.title). Undo with: arkivator restore \(document.shortID)").text())
        }
    }
}
