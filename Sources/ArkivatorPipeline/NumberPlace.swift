import ArkivatorArchive
import ArkivatorCore
import ArkivatorImaging
import ArkivatorLibrary
import Foundation

/// Where a filed document still shows a fødselsnummer: what `show` says, and what `redact`
/// clears.
public enum NumberPlace: String, Sendable, CaseIterable {
    /// The text as the letter has it, and so the `.docx` (the library's copy is masked).
    case text
    /// The searchable PDF's text layer.
    case pdfText
    /// A page image (or the PDF's page pictures) not yet gone over by `redact`.
    case pageImage
    /// A file's name.
    case fileName

    public var userMessage: UserMessage {
        switch self {
        case .text: UserMessage(nb: "i teksten og .docx-filen", en: "in the text and the .docx")
        case .pdfText: UserMessage(nb: "i PDF-teksten", en: "in the PDF's text")
        case .pageImage: UserMessage(nb: "i sidebildet", en: "on the page image")
        case .fileName: UserMessage(nb: "i filnavnet", en: "in the file name")
        }
    }

    /// The places where `document` (read with its numbers revealed) still shows a number. A
    /// page image counts when the document holds or held a number (its text shows one, or a
    /// masked one) and the image was never gone over by `redact` or `ingest --redact`.
    public static func places(of document: LibraryDocument) -> [NumberPlace] {
        var places: [NumberPlace] = []
        let inText = !Fodselsnummer.matches(in: document.text).isEmpty
        if inText { places.append(.text) }
        if let pdf = document.files.pdf, let bytes = try? [UInt8](Data(contentsOf: pdf.url)),
           let pages = PDFTextLayer.pageTexts(ofPDF: bytes), pages.contains(where: { !Fodselsnummer.matches(in: $0).isEmpty }) {
            places.append(.pdfText)
        }
        let heldNumber = inText || document.text.contains(Redaction.hiddenDigits)
        if heldNumber, document.files.images.contains(where: { file in
            (try? [UInt8](Data(contentsOf: file.url))).map { !PageRedaction.hasMarker($0) } ?? false
        }) {
            places.append(.pageImage)
        }
        if document.files.contains(where: { !Fodselsnummer.matches(in: $0.url.lastPathComponent).isEmpty }) {
            places.append(.fileName)
        }
        return places
    }
}
