import ArgumentParser
import ArkivatorArchive
import ArkivatorCore
import ArkivatorApp
import Foundation

extension Arkivator.Share {
    /// One PDF of chosen letters for a doctor, and the same letters as text for an assistant.
    struct Pack: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pack",
            abstract: "Lag én PDF av utvalgte brev til legen. (Make one PDF of chosen letters for the doctor.)",
            discussion: """
                PDF-en har en forside med hvem brevene gjelder (navn og fødselsdato, aldri \
                fødselsnummeret) og en innholdsliste (dato, type, avsender, tittel, side), så hvert brevs \
                sider i tidsrekkefølge. Sidene leses på nytt, og hvert fødselsnummer dekkes med en svart \
                boks på sidebildet og fjernes fra teksten. Brevene i arkivet endres ikke. Med --text \
                skrives også brevenes tekst til en fil for en KI-assistent, med navn og numre byttet ut.

                (The PDF has a cover naming whom the letters concern (name and birth date, never the \
                number) and an index (date, type, sender, title, page), then each letter's pages in time \
                order. The pages are read again, and every national ID number is covered by a black box \
                on the page image and removed from the text. The archived letters are not changed. \
                --text also writes the letters' text for an AI assistant, names and numbers replaced.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Brevenes id-er (de første tegnene holder). (The letters' ids.)", valueName: "ID"))
        var ids: [String]

        @Option(name: .long, help: ArgumentHelp("PDF-filen som skal lages. (The PDF file to make.)", valueName: "FILE.pdf"))
        var out: String

        @Option(name: .long, help: ArgumentHelp("Skriv også teksten for en KI-assistent hit, eller - for standard ut. (Also write the text for an AI assistant.)",
                                                valueName: "FILE.txt"))
        var text: String?

        func run() throws {
            let household = try LibraryCommand.household(libraryOptions)
            let terminal = Terminal()
            let summary = try LibraryCommand.reporting {
                try household.writeSharePack(ids, to: URL(fileURLWithPath: out)) { done, total in
                    Self.progress(terminal, done: done, total: total)
                }
            }
            terminal.line(UserMessage(
                nb: "Skrev \(ShownName.of(out)): \(summary.letters) brev, \(summary.pages) sider, \(summary.boxes) ord med fødselsnummer dekket med svart.",
                en: "Wrote \(ShownName.of(out)): \(summary.letters) letter(s), \(summary.pages) pages, \(summary.boxes) word(s) of national ID numbers covered.").text())
            guard let text else { return }
            let bundle = try LibraryCommand.reporting { try household.shareTextBundle(ids) }
            if text == "-" { terminal.line(bundle); return }
            try LibraryCommand.reporting { try AtomicFile.write(Array(bundle.utf8), to: URL(fileURLWithPath: text), overwrite: true) }
            terminal.line(UserMessage(nb: "Skrev teksten med navn og numre byttet ut til \(ShownName.of(text)).",
                                      en: "Wrote the text, names and numbers replaced, to \(ShownName.of(text)).").text())
        }

        /// `Leser sidene på nytt: 3 av 5` on standard error: one line kept up to date on a
        /// terminal, else a line each page.
        static func progress(_ terminal: Terminal, done: Int, total: Int) {
            let message = UserMessage(nb: "Leser sidene på nytt: \(done) av \(total)", en: "Reading the pages again: \(done) of \(total)")
            if terminal.stderrIsTerminal {
                if done < total { terminal.status(message.text()) } else { terminal.clearStatus() }
            } else if done > 0 {
                terminal.error(message)
            }
        }
    }
}
