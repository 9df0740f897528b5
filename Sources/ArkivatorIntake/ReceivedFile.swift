import ArkivatorCore
import Crypto
import Foundation

/// One page file read from disk and checked: its bytes, its real format and its SHA-256.
public struct ReceivedFile: Sendable {
    public let url: URL
    public let bytes: [UInt8]
    public let format: ImageFormat
    /// Lower-case hex SHA-256 of the bytes.
    public let sha256: String

    /// Reads a file and checks by its content that it is an image Arkivator reads.
    ///
    /// `maxBytes` refuses absurdly large files before they are read into memory.
    public static func read(_ url: URL, maxBytes: Int = 512 * 1024 * 1024) throws(InputError) -> ReceivedFile {
        let bytes: [UInt8]
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            guard size <= maxBytes else {
                throw InputError.fileTooLarge(bytes: size, limit: maxBytes)
            }
            bytes = [UInt8](try Data(contentsOf: url))
        } catch let error as InputError {
            throw error
        } catch {
            throw .unreadable(error)
        }
        let format = try ImageFormat.sniff(bytes)
        return ReceivedFile(url: url, bytes: bytes, format: format, sha256: Self.hex(SHA256.hash(data: bytes)))
    }

    /// The SHA-256 of several files' hashes in order: the identity of a multi-file document.
    public static func documentID(of files: [ReceivedFile]) -> String {
        if files.count == 1 { return files[0].sha256 }
        var hasher = SHA256()
        for file in files { hasher.update(data: Array(file.sha256.utf8)) }
        return hex(hasher.finalize())
    }

    private static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
    }
}
