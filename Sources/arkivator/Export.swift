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
                Mappen må være ny eller tom. Fødselsnumre er skjult som DDMMÅÅ ••••• i JSON-filen og \
                .docx-filene, med mindre du ber om dem med --with-numbers. PDF-ene og sidebildene er \
                kopier av arkivets: de viser papiret slik det er, til du har kjørt «arkivator redact ID».

                (Writes arkivator-eksport.json (metadata and text) and the files in per-person folders. \
                The folder must be new or empty. National ID numbers are masked as DDMMYY ••••• in the \
                JSON and the .docx files unless you ask for them with --with-numbers. The PDFs and page \
                images are copies of the archive's: they show the paper as it is until you run \
                "arkivator redact ID".)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Flag(name: .customLong("with-numbers"),
              help: "Ta med fødselsnumrene i klartekst i JSON- og .docx-filene. (Write the national ID numbers in clear in the JSON and .docx files.)")
        var withNumbers = false

        @Argument(help: ArgumentHelp("Mappen det eksporteres til. (The folder to export to.)", valueName: "DIR"))
        var directory: String

        func run() throws {
            let url = URL(fileURLWithPath: directory)
            let report = try LibraryCommand.run(libraryOptions) { library in
                try library.export(to: url, withNumbers: withNumbers)
            }
            let terminal = Terminal()
            terminal.line(UserMessage(
                nb: "Eksporterte \(report.documents) dokumenter og \(report.files) filer til \(url.path).",
                en: "Exported \(report.documents) documents and \(report.files) files to \(url.path).").text())
            terminal.line(withNumbers
                ? UserMessage(nb: "Fødselsnumrene står i klartekst i arkivator-eksport.json og .docx-filene: hold eksporten privat.",
                              en: "The national ID numbers are in clear in arkivator-eksport.json and the .docx files: keep the export private.").text()
                : UserMessage(nb: "Fødselsnumrene er skjult (DDMMÅÅ •••••) i arkivator-eksport.json og .docx-filene. PDF-ene og sidebildene er kopier av arkivets: der er nummeret skjult bare i dokumenter du har kjørt «arkivator redact» på. Ta numrene med: --with-numbers.",
                              en: "The national ID numbers are masked (DDMMYY •••••) in arkivator-eksport.json and the .docx files. The PDFs and page images are copies of the archive's: the number is hidden there only in documents you have run \"arkivator redact\" on. To include the numbers: --with-numbers.").text())
            LibraryCommand.reportMissing(report.missingFiles)
        }
    }
}
