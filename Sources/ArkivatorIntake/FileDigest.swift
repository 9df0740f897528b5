import ArkivatorCore
import ArkivatorCrypto
import Foundation

/// The SHA-256 of files that may not be images: `watch` keys its journal by the content of
/// everything it receives, readable image or not (``ReceivedFile`` refuses non-images).
public enum FileDigest {
    /// The lower-case hex SHA-256 of a file's bytes, read in chunks.
    public static func sha256(of url: URL) throws(InputError) -> String {
        let (handle, _) = try ReceivedFile.openRegularFile(url.path)
        defer { try? handle.close() }
        var hasher = SHA256()
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                hasher.update(data: chunk)
            }
        } catch {
            throw .unreadable("\(error.localizedDescription)")
        }
        return Hex.string(hasher.finalize())
    }

    /// The identity of a document made of files with these hashes, in page order: the same as
    /// ``ReceivedFile/documentID(of:)``.
    public static func documentID(ofHashes hashes: [String]) -> String {
        if hashes.count == 1 { return hashes[0] }
        var hasher = SHA256()
        for hash in hashes { hasher.update(data: Array(hash.utf8)) }
        return Hex.string(hasher.finalize())
    }
}
