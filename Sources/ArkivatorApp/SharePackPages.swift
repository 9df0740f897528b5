import ArkivatorArchive
import ArkivatorPipeline
import Foundation

/// The share pack's page images kept beside its PDF (see ``Household/writeSharePack(_:to:progress:pageURL:)``):
/// each letter's pages with every fødselsnummer boxed, the same images the PDF holds.
enum SharePackPages {
    /// Writes each letter's pages to `url(letter, page)`; when one cannot be written, those
    /// written are removed and the error thrown.
    static func write(_ letters: [(letter: String, jpegs: [[UInt8]])], to url: (String, Int) -> URL) throws {
        var written: [URL] = []
        do {
            for (letter, jpegs) in letters {
                for (index, jpeg) in jpegs.enumerated() {
                    let target = url(letter, index + 1)
                    try AtomicFile.write(jpeg, to: target, overwrite: true)
                    written.append(target)
                }
            }
        } catch {
            for file in written { try? FileManager.default.removeItem(at: file) }
            throw error
        }
    }
}
