import ArkivatorCore
import Foundation

extension ShareStore {
    /// Where page `page` (1…) of letter `letter` (its short id) of link `id`'s share pack is kept
    /// as an image, every fødselsnummer under a box as in the PDF (see ``sharePackURL(_:letters:)``):
    /// `<library>/Delinger/<id>-<version>-<letter>-<page>.jpg`, beside the PDF of the same
    /// version, and gone with it (revoked, expired, a letter changed or purged).
    public func sharePageURL(_ id: Int, letters: [LibraryDocument], letter: String, page: Int) -> URL {
        let pack = sharePackURL(id, letters: letters).deletingPathExtension().lastPathComponent
        return shareFolderURL.appendingPathComponent("\(pack)-\(letter)-\(page).jpg")
    }

    /// How many page images a letter's share pack shows: one for each archived page image, else
    /// one for each page of its PDF.
    public static func sharedPageCount(_ letter: LibraryDocument) -> Int {
        let images = letter.files.images.count
        if images > 0 { return images }
        return letter.files.pdf == nil ? 0 : letter.pageCount
    }

    /// Whether link `id`'s pack of `letters` is kept with its page images: its PDF, and each
    /// letter's first page beside it (a pack is written whole, its pages before its PDF; one made
    /// before page images were kept has none, and is made again once).
    public func keepsSharePages(_ id: Int, letters: [LibraryDocument]) -> Bool {
        guard FileManager.default.fileExists(atPath: sharePackURL(id, letters: letters).path) else { return false }
        return letters.allSatisfy { letter in
            Self.sharedPageCount(letter) == 0
                || FileManager.default.fileExists(atPath: sharePageURL(id, letters: letters, letter: letter.shortID, page: 1).path)
        }
    }

    /// Whether `name` in `Delinger/` belongs to the pack whose PDF is `pack` (the PDF or one of its page images).
    static func belongsToPack(_ name: String, pack: URL) -> Bool {
        let stem = pack.deletingPathExtension().lastPathComponent
        return name == pack.lastPathComponent || (name.hasPrefix(stem + "-") && name.hasSuffix(".jpg"))
    }

    /// Shreds a pack's files: its PDF and its page images.
    func shredSharePack(_ pack: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: shareFolderURL.path)) ?? []
        for name in names where Self.belongsToPack(name, pack: pack) {
            _ = Shredder.shred(shareFolderURL.appendingPathComponent(name).path)
        }
    }
}
