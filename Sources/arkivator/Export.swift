import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator {
    /// Everything, as plain files and JSON.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Eksporter alle dokumenter som filer og JSON. (Export every document as files and JSON.)",
            discussion: """
                Skriver arkivator-eksport.json (metadata og all tekst) og filene i mapper per person. \
                Mappen må være ny eller tom.

                (Writes arkivator-eksport.json (metadata and text) and the files in per-person folders. \
                The folder must be new or empty.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Mappen det eksporteres til. (The folder to export to.)", valueName: "DIR"))
        var directory: String

        func run() throws {
            let url = URL(fileURLWithPath: directory)
            let report = try LibraryCommand.run(libraryOptions) { library in try library.export(to: url) }
            let terminal = Terminal()
            terminal.line(UserMessage(
                nb: "Eksporterte \(report.documents) dokumenter og \(report.files) filer til \(url.path).",
                en: "Exported \(report.documents) documents and \(report.files) files to \(url.path).").text())
            LibraryCommand.reportMissing(report.missingFiles)
        }
    }
}
