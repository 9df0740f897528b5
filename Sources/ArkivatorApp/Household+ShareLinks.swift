import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorPipeline
import Foundation

extension Household {
    /// The share PDF (``writeSharePack(_:to:progress:)``) of link `id`'s letters as they stand,
    /// made now when it has not been made yet, and kept in the library's own folder `Delinger/`
    /// (see ``Library/sharePackURL(_:letters:)``): made once, served many times. A PDF of the
    /// link's letters as they stood before (one since put in the trash, a text since corrected)
    /// is removed, and so is one finished after the link was revoked or a letter purged. Blocking (Tesseract reads each page again): never on the cooperative pool.
    public func sharePack(link id: Int, letters: [LibraryDocument]) throws -> URL {
        let url = library.sharing.sharePackURL(id, letters: letters)
        if library.sharing.keepsSharePages(id, letters: letters) { return url }
        try AtomicFile.createDirectory(library.sharing.shareFolderURL)
        _ = try writeSharePack(letters.map(\.sha256), to: url, pageURL: { letter, page in
            self.library.sharing.sharePageURL(id, letters: letters, letter: letter, page: page)
        })
        guard try library.sharing.keepsSharePack(url, link: id, letters: letters) else { throw SharePackFailure.linkChanged }
        library.sharing.removeSharePacks(id, keeping: url)
        return url
    }
}
