import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorSync
import ArkivatorApp
import Foundation

extension Arkivator {
    /// Hides fødselsnumre in every copy of a document.
    struct Redact: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Skjul fødselsnummer i alle kopier av et dokument. (Hide national ID numbers in every copy of a document.)",
            discussion: """
                Bytter hvert fødselsnummer ut med DDMMÅÅ ••••• i den lagrede teksten, søkeindeksen, \
                .docx-filen, PDF-ens tekst og filnavnene, og legger en svart boks over nummeret på \
                sidebildene og i PDF-en (sidene leses på nytt for å finne ordene). Databasefilen ryddes \
                så det gamle nummeret ikke står igjen i den. Nummeret finnes uansett hvordan det er skrevet: \
                11 sifre, med mellomrom, bindestrek eller punktum, i grupper (14.03.85 12324) eller delt over \
                et linjeskift. Gjelder vanlige fødselsnumre, D- og H-numre, \
                syntetiske testnumre og numre etter regelen fra 2032. «arkivator ingest --redact» gjør det samme med én gang.

                (Replaces each national ID number with DDMMYY ••••• in the stored text, the index, the \
                .docx, the PDF's text and the file names, and paints a black box over the number on the \
                page images and in the PDF (the pages are read again to find the words). The database \
                file is cleaned so the old number does not linger in it. The number is found however it is \
                written: 11 digits, with spaces, a dash or a dot, in groups (14.03.85 12324) or broken across \
                a line. Covers ordinary numbers, D- and \
                H-numbers, synthetic test numbers and numbers under the rule from 2032. "arkivator ingest --redact" does the same at once.)
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Dokumentets id. (The document's id.)", valueName: "ID"))
        var id: String

        /// What was hidden, and where the numbers now stand only masked.
        static func summary(_ report: Household.RedactionReport) -> UserMessage {
            guard report.inText > 0 || report.boxes > 0 else {
                return UserMessage(nb: "Fant ingen fødselsnummer i teksten eller på sidebildene (\(report.pages) sider lest på nytt); ingenting å skjule.",
                                   en: "Found no national ID number in the text or on the page images (\(report.pages) pages read again); nothing to hide.")
            }
            return UserMessage(
                nb: "Skjulte \(report.inText) fødselsnummer. Nå står bare fødselsdatoen (DDMMÅÅ •••••) i teksten, søket, "
                    + "de eldre tekstversjonene, forklaringen, timene i kalenderen, .docx-filen, PDF-teksten, filnavnene, "
                    + "eksport, dokumentsiden og delingene; \(report.boxes) svarte bokser dekker nummer på sidebildene "
                    + "(\(report.pages) sider lest på nytt). Bildene slik de ble tatt er slettet, og databasefilen er ryddet.",
                en: "Hid \(report.inText) national ID number(s). Only the birth date (DDMMYY •••••) now stands in the text, search, "
                    + "the older text versions, the explanation, the calendar's appointments, the .docx, the PDF text, the file names, "
                    + "exports, the document page and shares; \(report.boxes) black box(es) cover numbers on the page images "
                    + "(\(report.pages) pages read again). The photos as taken are deleted, and the database file is cleaned.")
        }

        func run() throws {
            let household = try LibraryCommand.household(libraryOptions)
            let report: Household.RedactionReport
            do {
                report = try household.redact(id, programVersion: ArkivatorVersion.current)
                household.library.audit.recordAtMachine(.redacted, document: try? household.library.documents.document(id))
            } catch {
                Terminal().error(UserMessage(error: error))
                throw ExitCode(1)
            }
            Terminal().line(Self.summary(report).text())
            // The family's copy is replaced before the redaction is called done (or says where the number still stands).
            let worker = household.uploads.worker
            if let number = try? household.library.documents.document(id).number,
               let copy = BlockingWait.run({ await CopyAfterChange.bringInLine(documentNumber: number, worker: worker) }) {
                Terminal().line(copy.text())
            }
            if report.unreadable > 0 {
                Terminal().error(UserMessage(
                    nb: "\(report.unreadable) sidebilde(r) kunne ikke leses på nytt, og PDF-en ble ikke laget på nytt: der kan nummeret fortsatt stå. Se «arkivator show \(id)».",
                    en: "\(report.unreadable) page image(s) could not be read again, and the PDF was not made again: the number may still show there. See \"arkivator show \(id)\"."))
            }
        }
    }
}
