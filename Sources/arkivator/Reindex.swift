import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator {
    /// Builds the search index again.
    struct Reindex: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Bygg søkeindeksen på nytt og sjekk arkivfilene. (Rebuild the search index, check the files.)")

        @OptionGroup var libraryOptions: LibraryOptions

        func run() throws {
            let report = try LibraryCommand.run(libraryOptions) { library in try library.reindex() }
            let terminal = Terminal()
            terminal.line(UserMessage(
                nb: "Indekserte \(report.documents) dokumenter (\(report.terms) ord i ordlisten for sammensatte ord).",
                en: "Indexed \(report.documents) documents (\(report.terms) words in the compound word list).").text())
            LibraryCommand.reportMissing(report.missingFiles)
            if !report.missingFiles.isEmpty { throw ExitCode(1) }
        }
    }
}
