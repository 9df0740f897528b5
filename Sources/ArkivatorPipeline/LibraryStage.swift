import ArkivatorClassify
import ArkivatorLibrary
import Foundation

/// Stage 6: records a filed document in the library, in the same step that writes its files
/// (see ``Library/file(_:write:)``).
enum LibraryStage {
    /// Files the document: archive files through `write`, then its row, files and index entry.
    static func file(_ record: inout DocumentRecord, pages: [PageReader.Result], archive: ArchiveOptions,
                     library: Library) throws {
        let sourceName = record.sources.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""
        var written: DocumentRecord.ArchivedFiles?
        let snapshot = record
        do {
            let stored = try library.file(document(snapshot, sourceName: sourceName)) { reservation in
                let files = try ArchiveStage(options: archive).write(
                    snapshot, pages: pages, sourceName: sourceName, willPublish: reservation.reserve)
                written = files
                return archived(files)
            }
            record.files = written
            record.libraryID = stored.shortID
            record.libraryStatus = .added
        } catch let failure as LibraryFailure where failure.code == .duplicate || failure.code == .inTrash {
            record.libraryStatus = failure.code == .duplicate ? .duplicate : .inTrash
            record.libraryMessage = failure.userMessage.text()
        }
    }

    /// The library's view of a record.
    static func document(_ record: DocumentRecord, sourceName: String) -> LibraryDocument {
        let k = record.classification
        let pages = record.pageReports.enumerated().map { index, page in
            LibraryDocument.Page(number: index + 1, ocrConfidence: page.ocrConfidence, width: page.width, height: page.height)
        }
        return LibraryDocument(
            sha256: record.id ?? "", sourceName: sourceName, title: k?.title ?? ArchiveStage.fallbackTitle(record),
            docType: k?.docType ?? .annet, person: k?.familyMember ?? k?.person, familyMember: k?.familyMember,
            institution: k?.institution, specialty: k?.specialty,
            documentDate: k?.documentDate ?? record.scanDate ?? CalendarDate.fallback.iso, scanDate: record.scanDate,
            keywords: k?.keywords ?? [], ocrConfidence: record.ocrConfidence, needsReview: k?.needsReview ?? [],
            text: record.text,
            lowConfidence: record.lowConfidenceWords.map { LibraryDocument.TextRange(start: $0.start, length: $0.length) },
            pages: pages)
    }

    static func archived(_ files: DocumentRecord.ArchivedFiles) -> [ArchivedFile] {
        var result: [ArchivedFile] = []
        if !files.docx.isEmpty { result.append(ArchivedFile(kind: .docx, path: files.docx)) }
        for (index, image) in files.images.enumerated() { result.append(ArchivedFile(kind: .image, page: index + 1, path: image)) }
        if !files.pdf.isEmpty { result.append(ArchivedFile(kind: .pdf, path: files.pdf)) }
        return result
    }
}
