import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorPipeline
import Foundation

extension Arkivator {
    /// Removes fødselsnumre from a document's text.
    struct Redact: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fjern fødselsnummer fra et dokument. (Remove national ID numbers from a document.)",
            discussion: """
                Bytter hvert fødselsnummer i teksten ut med DDMMÅÅ ••••• i søkeindeksen, den lagrede teksten \
                og .docx-filen. Sidebildene og PDF-en viser fortsatt papiret slik det er. \
                «arkivator ingest --redact» gjør dette med én gang.

                (Replaces each national ID number in the text with DDMMYY ••••• in the index, the stored \
                text and the .docx. The page images and the PDF still show the paper as it is.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Dokumentets id. (The document's id.)", valueName: "ID"))
        var id: String

        func run() throws {
            let count = try LibraryCommand.run(libraryOptions) { library in
                try library.redact(id, programVersion: ArkivatorVersion.current)
            }
            Terminal().line(count == 0
                ? UserMessage(nb: "Fant ingen fødselsnummer i teksten; ingenting endret.",
                              en: "Found no national ID number in the text; nothing changed.").text()
                : UserMessage(nb: "Skjulte \(count) fødselsnummer i teksten, indeksen og .docx-filen. Sidebildene og PDF-en viser fortsatt papiret.",
                              en: "Hid \(count) national ID number(s) in the text, the index and the .docx. The page images and the PDF still show the paper.").text())
        }
    }
}
