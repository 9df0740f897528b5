import Foundation
import Hummingbird
import NIOCore
import NIOPosix

/// A file sent in chunks as it is read from disk, never whole in memory, each read on a thread
/// of NIO's own pool (never on the pool that serves requests).
enum FileStream {
    static let chunk = 256 * 1024

    /// The body for `url`, or nil when it is not a readable regular file. With `removeAfter`, the
    /// file is removed once sent (or once the client goes away): a backup made for this answer.
    static func body(_ url: URL, removeAfter: Bool = false) async throws -> (ResponseBody, Int)? {
        let size: Int? = try await NIOThreadPool.singleton.runIfActive {
            guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey]),
                  values.isRegularFile == true, access(url.path, R_OK) == 0 else { return nil }
            return values.fileSize
        }
        guard let size else { return nil }
        // The file is opened only once the answer is being written: a client that goes away
        // before that leaves no handle open.
        let body = ResponseBody(contentLength: size) { writer in
            defer { if removeAfter { try? FileManager.default.removeItem(at: url) } }
            let box = HandleBox(try await NIOThreadPool.singleton.runIfActive { try FileHandle(forReadingFrom: url) })
            defer { try? box.handle.close() }
            while true {
                let data: Data = try await NIOThreadPool.singleton.runIfActive { try box.handle.read(upToCount: chunk) ?? Data() }
                if data.isEmpty { break }
                try await writer.write(ByteBuffer(bytes: data))
            }
            try await writer.finish(nil)
        }
        return (body, size)
    }

    /// A file handle handed between threads: only one of them uses it at a time (each read is
    /// awaited before the next).
    final class HandleBox: @unchecked Sendable {
        let handle: FileHandle
        init(_ handle: FileHandle) { self.handle = handle }
    }
}
