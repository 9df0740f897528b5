import ArkivatorCore
import ArkivatorPipeline
import Foundation

/// The `NAME.feil.txt` note written beside a document moved to `failed/`: what happened and
/// what to do, in plain Bokmål and then in English.
struct FailureNote {
    /// The document as it was received, relative to the watched folder.
    let source: String
    /// What failed: stage, stable code (`truncated`, `notAnImage`, `diskFull` …) and message.
    let failure: DocumentFailure
    let attempts: Int
    /// The watched folder.
    let watched: String
    /// Where the original is now, relative to the watched folder.
    let movedTo: String
    var date = Date()

    var text: String {
        let advice = Self.advice(for: failure, watched: watched)
        let reason = failure.userMessage
        let code = failure.errorCode
        let time = date.formatted(.iso8601)
        let (moved, folder) = (ShownName.of(movedTo), ShownName.of(watched))
        let back = UserMessage(
            nb: "Vil du prøve igjen, flytter du \(moved) tilbake til \(folder). Arkivator leser den da på nytt.",
            en: "To try again, move \(moved) back into \(folder). Arkivator then reads it again.")
        return """
            Arkivator kunne ikke arkivere «\(source)».

            Hva skjedde: \(reason.norwegian)
            Hva du kan gjøre: \(advice.norwegian)
            \(back.norwegian)

            Tidspunkt: \(time) · forsøk: \(attempts) · kode: \(code)

            ----------------------------------------------------------------

            Arkivator could not file “\(source)”.

            What happened: \(reason.english)
            What to do: \(advice.english)
            \(back.english)

            Time: \(time) · attempts: \(attempts) · code: \(code)

            """
    }

    static func advice(for failure: DocumentFailure, watched: String) -> UserMessage {
        if failure.isPassing {
            return UserMessage(nb: "Arkivator prøvde flere ganger. Sjekk at disken har ledig plass og at du kan skrive i bibliotekmappen (arkivator doctor).",
                               en: "Arkivator tried several times. Check that the disk has free space and that you may write to the library folder (arkivator doctor).")
        }
        return switch failure.errorCode {
        case "empty", "truncated", "undecodable", "noPages":
            UserMessage(nb: "Skann eller kopier dokumentet på nytt og legg den nye filen i \(watched). Denne filen kan du slette.",
                        en: "Scan or copy the document again and put the new file in \(watched). You may delete this file.")
        case "notAnImage", "unsupportedFormat":
            UserMessage(nb: "Lagre dokumentet som \(InputError.supportedFormats.norwegian) og legg det i \(watched).",
                        en: "Save the document as \(InputError.supportedFormats.english) and put it in \(watched).")
        case "notRegularFile":
            UserMessage(nb: "Legg selve bildet eller PDF-en i \(watched), ikke en FIFO, socket eller enhet.",
                        en: "Put the image or PDF itself in \(watched), not a FIFO, socket or device.")
        case "pageSize":
            UserMessage(nb: "Lag PDF-en på nytt i vanlig sidestørrelse (for eksempel «Skriv ut til PDF» på A4) og legg den i \(watched).",
                        en: "Make the PDF again at a normal page size (for example “Print to PDF” on A4) and put it in \(watched).")
        case "encrypted":
            UserMessage(nb: "Lagre en kopi av PDF-en uten passord (for eksempel med «Skriv ut til PDF») og legg den i \(watched).",
                        en: "Save a copy of the PDF without a password (for example with “Print to PDF”) and put it in \(watched).")
        case "changedWhileRead":
            UserMessage(nb: "Vent til filen er ferdig lagret, og legg den i \(watched) igjen.",
                        en: "Wait until the file is fully saved, and put it in \(watched) again.")
        case "tooManyPages":
            UserMessage(nb: "Del dokumentet opp i flere filer, ett brev i hver, og legg dem i \(watched).",
                        en: "Split the document into several files, one letter each, and put them in \(watched).")
        case "tooLarge":
            UserMessage(nb: "Skann på nytt med lavere oppløsning (300 DPI holder) og legg den nye filen i \(watched).",
                        en: "Scan again at a lower resolution (300 DPI is enough) and put the new file in \(watched).")
        default:
            UserMessage(nb: "Kjør arkivator doctor for å sjekke Tesseract og språkdata. Kommer feilen tilbake, meld fra.",
                        en: "Run arkivator doctor to check Tesseract and its language data. If the problem comes back, please report it.")
        }
    }
}
