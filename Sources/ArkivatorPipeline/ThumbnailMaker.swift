import ArkivatorArchive
import ArkivatorCore
import ArkivatorImaging
import ArkivatorLibrary
import Foundation

/// Makes the thumbnails of documents' first pages (``Image/thumbnailJPEG(width:quality:)``) and
/// hands them to the library (``Library/setThumbnail(_:jpeg:)``): once when a letter is filed,
/// from the page the pipeline already holds; for a document filed before thumbnails (or whose
/// pages changed) when it is first asked for, or by `arkivator reindex`. Blocking work (a JPEG
/// or PDF page decoded, a file written): callers run it on threads of their own.
public enum ThumbnailMaker {
    /// The thumbnail of the pages just read: the first page's archive JPEG, else the first page
    /// of the PDF the letter came as; nil when there is neither.
    static func jpeg(pages: [PageReader.ReadPage], originalPDF: [UInt8]?) throws -> [UInt8]? {
        if let first = pages.first?.jpeg { return try Image.thumbnailJPEG(firstPageOf: first) }
        if let originalPDF { return try Image.thumbnailJPEG(firstPageOf: originalPDF) }
        return nil
    }

    /// The thumbnail of archived files: the first page image, else the PDF's first page; nil
    /// when there is neither.
    static func jpeg(files: [ArchivedFile]) throws -> [UInt8]? {
        guard let file = files.images.first ?? files.pdf else { return nil }
        return try Image.thumbnailJPEG(firstPageOf: [UInt8](Data(contentsOf: file.url)))
    }

    /// Files the thumbnail of a document just filed; a failure leaves it to be made later.
    static func file(_ id: String, pages: [PageReader.ReadPage], originalPDF: [UInt8]?, in library: Library) {
        guard let jpeg = try? jpeg(pages: pages, originalPDF: originalPDF) else { return }
        _ = try? library.documents.setThumbnail(id, jpeg: jpeg)
    }

    /// Document `id`'s thumbnail, made now from its archived files when it is missing, when its
    /// file has gone (a library restored from a backup), or when `remake` (its pages changed).
    /// A page that cannot be read gives no thumbnail (``Thumbnail/none``), not an error.
    @discardableResult
    public static func thumbnail(_ id: String, in library: Library, remake: Bool = false) throws -> Thumbnail {
        let known = try library.documents.thumbnail(id)
        switch known {
        case .none where !remake: return known
        case .file(let url, _) where !remake && FileManager.default.fileExists(atPath: url.path): return known
        default: break
        }
        let document = try library.documents.document(id)
        let jpeg = try? jpeg(files: document.files)
        return try library.documents.setThumbnail(id, jpeg: jpeg ?? nil)
    }

    /// Makes the thumbnails not made yet, oldest document first (at most `limit` looked at);
    /// returns how many were made (a document with no page to make one from is not counted).
    @discardableResult
    public static func makeMissing(in library: Library, limit: Int = .max) throws -> Int {
        var looked = 0, made = 0
        while looked < limit {
            let ids = try library.documents.documentsWithoutThumbnail(limit: min(200, limit - looked))
            guard !ids.isEmpty else { break }
            for id in ids {
                if case .file = try thumbnail(id, in: library) { made += 1 }
            }
            looked += ids.count
        }
        return made
    }
}
