import ArkivatorArchive
import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorPipeline
import Foundation

extension Household {
    /// Replaces a document's text with a person's correction in every copy (the stored text,
    /// the index, the `.docx`, the PDF's text) and keeps it as a version: see
    /// ``DocumentStore/correctText(_:to:maskNumbers:programVersion:)``. A fødselsnummer in the new
    /// text is treated as the OCR's is: sealed in the library, and masked in every copy of a
    /// letter whose numbers were hidden (``numbersHidden(_:)``). The letter's appointments are
    /// read again from the new text, unless a person corrected them by hand (``rereadAppointments(_:)``).
    @discardableResult
    public func correctText(_ id: String, to text: String, programVersion: String = ArkivatorVersion.current) throws -> TextCorrection {
        let document = try library.documents.document(id, revealNumbers: true)
        let correction = try library.documents.correctText(document.sha256, to: text, maskNumbers: Self.numbersHidden(document),
                                                 programVersion: programVersion)
        if correction.changed {
            try rereadAppointments(document.sha256)
            try rereadLabs(document.sha256, typedByPerson: true)
        }
        return correction
    }

    /// Brings back the OCR's own reading everywhere (see ``DocumentStore/restoreOCRText(_:maskNumbers:programVersion:)``).
    @discardableResult
    public func restoreOCRText(_ id: String, programVersion: String = ArkivatorVersion.current) throws -> TextCorrection {
        let document = try library.documents.document(id, revealNumbers: true)
        let correction = try library.documents.restoreOCRText(document.sha256, maskNumbers: Self.numbersHidden(document),
                                                    programVersion: programVersion)
        if correction.changed {
            try rereadAppointments(document.sha256)
            try rereadLabs(document.sha256, typedByPerson: false)
        }
        return correction
    }

    /// Reads a letter's appointments again from its text as it is now, as filing read them (see
    /// ``Library/rereadAppointments(of:found:)``): false when they were left as they were (corrected
    /// by hand, or moved by a later letter).
    @discardableResult
    public func rereadAppointments(_ id: String) throws -> Bool {
        let document = try library.documents.document(id, revealNumbers: true)
        let scan = document.scanDate.flatMap(CalendarDate.init(iso:)) ?? CalendarDate.today() ?? .fallback
        let found = Classifier(family: try family()).classify(document.text, scanDate: scan).appointments ?? []
        return try library.calendar.rereadAppointments(of: document.sha256, found: found)
    }

    /// Whether a document's numbers were hidden by `redact` or `ingest --redact`: a page image
    /// carries their mark, or the text (read with its numbers revealed) still shows a masked one.
    public static func numbersHidden(_ document: LibraryDocument) -> Bool {
        if document.text.contains(" " + Redaction.hiddenDigits) { return true }
        return document.files.images.contains { file in
            (try? [UInt8](Data(contentsOf: file.url))).map(PageRedaction.hasMarker) ?? false
        }
    }
}
