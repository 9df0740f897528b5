import ArkivatorArchive
import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// Stage 6: records a filed document in the library, in the same step that writes its files
/// (see ``DocumentStore/file(_:write:)``).
enum LibraryStage {
    /// Files the document: archive files through `write`, then its row, files and index entry.
    static func file(_ record: inout DocumentRecord, pages: [PageReader.ReadPage], originalPDF: [UInt8]? = nil,
                     originals: [ReceivedOriginal] = [], archive: ArchiveOptions,
                     library: Library) throws {
        var written: [ArchivedFile]?
        var document = record.libraryDocument
        document.numberMarks = NumberMarks.marks(record.classification?.doubtfulNumbers ?? [], pages: pages.map(\.ocr))
        document.labs = LabEntries.entries(in: document.text, rows: record.classification?.labs, pages: pages.map(\.ocr))
        do {
            let stored = try library.documents.file(document, originals: originals) { reservation in
                let files = try ArchiveStage(options: archive).write(document, pages: pages, originalPDF: originalPDF,
                                                                   willPublish: reservation.reserve)
                written = files
                return files
            }
            record.files = written
            record.libraryID = stored.shortID
            record.libraryStatus = .added
            ThumbnailMaker.file(stored.shortID, pages: pages, originalPDF: originalPDF, in: library)
        } catch let failure as LibraryFailure where failure.code == .duplicate || failure.code == .inTrash {
            record.libraryStatus = failure.code == .duplicate ? .duplicate : .inTrash
            record.libraryMessage = failure.userMessage
        }
    }
}

extension DocumentRecord {
    /// The first page file's name as it was received.
    var sourceName: String { sources.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "" }

    /// A title for a document without text: the scan date and the file name.
    var fallbackTitle: String {
        let name = URL(fileURLWithPath: sources.first ?? "dokument").deletingPathExtension().lastPathComponent
        return DocumentTitle.make(date: scanDate ?? CalendarDate.fallback.iso, "Skannet dokument \(name)")
    }

    /// The document as the library and the filing layer see it: the one mapping from a record.
    var libraryDocument: LibraryDocument {
        let k = classification
        let pages = pageReports.enumerated().map { index, page in
            LibraryDocument.Page(number: index + 1, ocrConfidence: page.ocrConfidence, width: page.width, height: page.height,
                                 original: page.original, originalPage: page.originalPage, crop: page.crop)
        }
        var document = LibraryDocument(
            sha256: id ?? "", sourceName: sourceName, title: k?.title ?? fallbackTitle,
            docType: k?.docType ?? .annet, person: k?.familyMember ?? k?.person, familyMember: k?.familyMember,
            institution: k?.institution, specialty: k?.specialty,
            documentDate: k?.documentDate ?? scanDate ?? CalendarDate.fallback.iso, scanDate: scanDate,
            keywords: k?.keywords ?? [], ocrConfidence: ocrConfidence, needsReview: k?.needsReview ?? [],
            text: text,
            lowConfidence: lowConfidenceWords.map { LibraryDocument.TextRange(start: $0.start, length: $0.length) },
            pages: pages)
        document.markDoubtful(k?.doubtfulNumbers ?? [])
        document.fieldConfidence = k?.confidence
        document.appointments = k?.appointments
        return document
    }
}

extension LibraryDocument {
    /// Marks the numbers that may be misread: each one's place joins the low-confidence ranges
    /// (marked in colour in the review's text, named by «Usikkert tall»), and the letter waits for
    /// review (``ReviewReason/numbersField``). A number is never silently taken as read.
    package mutating func markDoubtful(_ numbers: [DoubtfulNumber]) {
        guard !numbers.isEmpty else { return }
        for number in numbers
        where !lowConfidence.contains(where: { $0.start < number.start + number.length && number.start < $0.start + $0.length }) {
            lowConfidence.append(TextRange(start: number.start, length: number.length))
        }
        lowConfidence.sort { $0.start < $1.start }
        if !needsReview.contains(ReviewReason.numbersField) { needsReview.append(ReviewReason.numbersField) }
    }
}
