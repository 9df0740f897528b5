import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
import Foundation

extension Arkivator {
    /// Corrects a document's metadata; its files follow.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rett tittel, type, person, dato, avsender eller teksten. (Correct a document.)",
            discussion: """
                Filene får nytt navn og flyttes til personens mappe, og .docx-filen skrives på nytt. \
                Endres datoen eller typen, følger tittelen med.

                (The files are renamed and moved to the person's folder and the .docx is written again. \
                The title follows a new date or type.)

                Teksten: skriv den ut, rett ordene OCR leste feil, og gi filen tilbake. Søket, .docx-filen \
                og PDF-ens tekst følger med, og hver retting tas vare på som en versjon. Et skjult \
                fødselsnummer (DDMMÅÅ •••••) kan stå som det står: nummeret beholdes. --ocr-text henter \
                tilbake det OCR leste.

                (The text: print it, correct the words OCR misread, and give the file back. Search, the \
                .docx and the PDF's text follow, and each correction is kept as a version. A hidden \
                national ID number (DDMMYY •••••) may stay as it is: the number is kept. --ocr-text brings \
                back what OCR read.)

                Eksempler / examples:
                  arkivator edit 3fa2b1 --person "Kari Nordmann"
                  arkivator edit 3fa2b1 --date 2024-03-14 --type epikrise
                  arkivator edit 3fa2b1 --title "Epikrise etter kneoperasjon"
                  arkivator show 3fa2b1 --text > brev.txt
                  arkivator edit 3fa2b1 --text-file brev.txt   # rettet / corrected
                  arkivator edit 3fa2b1 --ocr-text             # OCR-lesningen / the OCR's
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Dokumentets id. (The document's id.)", valueName: "ID"))
        var id: String

        @Option(name: .long, help: ArgumentHelp("Ny tittel (datoen settes foran om den mangler). (New title.)", valueName: "TITLE"))
        var title: String?

        @Option(name: .long, help: ArgumentHelp(
            "Ny type: innkalling, epikrise, lab-svar, resept, henvisning, vedtak eller annet. (New type.)", valueName: "TYPE"),
                transform: TypeArgument.parse)
        var type: DocumentType?

        @Option(name: .long, help: ArgumentHelp("Personen brevet gjelder. (The person.)", valueName: "NAME"))
        var person: String?

        @Option(name: .long, help: ArgumentHelp("Brevets dato, som 2024-03-05. (The letter's date.)", valueName: "YYYY-MM-DD"),
                transform: DateArgument.parse("--date"))
        var date: CalendarDate?

        @Option(name: .long, help: ArgumentHelp("Avsender. (Sender.)", valueName: "NAME"))
        var institution: String?

        @Option(name: .customLong("text-file"), help: ArgumentHelp(
            "Rettet tekst fra en UTF-8-fil (- for standard inn); sider skilles med sideskift (\\f). (The corrected text from a file.)",
            valueName: "FILE"))
        var textFile: String?

        @Flag(name: .customLong("ocr-text"), help: "Hent tilbake teksten slik OCR leste den. (Bring back the text as OCR read it.)")
        var ocrText = false

        func validate() throws {
            if textFile != nil && ocrText {
                throw ValidationError(UserMessage(nb: "Velg enten --text-file eller --ocr-text, ikke begge.",
                                                  en: "Choose either --text-file or --ocr-text, not both.").text())
            }
        }

        func run() throws {
            let changes = DocumentChanges(title: title, type: type, person: person, date: date, institution: institution)
            let text = try textFile.map(TextFileArgument.read)
            let household = try LibraryCommand.household(libraryOptions)
            let (document, correction) = try LibraryCommand.reporting {
                try Self.apply(changes, text: text, ocrText: ocrText, to: id, in: household)
            }
            if !changes.isEmpty { household.library.audit.recordAtMachine(.letterChanged, document: document) }
            if correction?.changed == true { household.library.audit.recordAtMachine(.textCorrected, document: document) }
            let terminal = Terminal()
            terminal.line(UserMessage(nb: "Endret: \(document.title)", en: "Changed: \(document.title)").text())
            if let correction { terminal.line(Self.describe(correction).text()) }
            for file in document.files { terminal.line("  " + file.path) }
        }

        /// The metadata changes (when any, or when nothing else is asked: the library then says
        /// what can be given), then the text.
        static func apply(_ changes: DocumentChanges, text: String?, ocrText: Bool, to id: String,
                          in household: Household) throws -> (LibraryDocument, TextCorrection?) {
            // Every value's length first: a text too long changes nothing, the title included.
            try changes.checkLengths()
            try StoredField.text.check(text)
            var document: LibraryDocument?
            if !changes.isEmpty || (text == nil && !ocrText) {
                document = try household.library.documents.edit(id, changes, programVersion: ArkivatorVersion.current)
            }
            let target = document?.sha256 ?? id
            var correction: TextCorrection?
            if let text {
                correction = try household.correctText(target, to: text)
            } else if ocrText {
                correction = try household.restoreOCRText(target)
            }
            if let correction { return (correction.document, correction) }
            return (try document ?? household.library.documents.document(target), nil)
        }

        static func describe(_ correction: TextCorrection) -> UserMessage {
            guard correction.changed else {
                return UserMessage(nb: "Teksten var allerede slik; den er ikke endret.", en: "The text was already so; it is unchanged.")
            }
            guard correction.pdfRewritten || correction.document.files.pdf == nil else {
                return UserMessage(
                    nb: "Teksten er endret i søket og .docx-filen. PDF-en er brevet slik det kom, og beholder sin egen tekst.",
                    en: "The text is changed in search and the .docx. The PDF is the letter as it came and keeps its own text.")
            }
            return UserMessage(nb: "Teksten er endret i søket, .docx-filen og PDF-en. Tidligere versjoner: arkivator show \(correction.document.shortID)",
                               en: "The text is changed in search, the .docx and the PDF. Earlier versions: arkivator show \(correction.document.shortID)")
        }
    }

    /// A text file given on the command line (`-`: standard input): UTF-8, at most 5 MB.
    enum TextFileArgument {
        static let largest = 5_000_000

        static func read(_ path: String) throws -> String {
            let data: Data
            do {
                data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ValidationError(UserMessage(nb: "Kunne ikke lese \(path). Sjekk at filen finnes.",
                                                  en: "Could not read \(path). Check that the file exists.").text())
            }
            guard data.count <= largest else {
                throw ValidationError(UserMessage(nb: "\(path) er større enn 5 MB; er det riktig fil?",
                                                  en: "\(path) is larger than 5 MB; is it the right file?").text())
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw ValidationError(UserMessage(nb: "\(path) er ikke UTF-8-tekst. Lagre den som UTF-8 og prøv igjen.",
                                                  en: "\(path) is not UTF-8 text. Save it as UTF-8 and try again.").text())
            }
            return text
        }
    }
}
