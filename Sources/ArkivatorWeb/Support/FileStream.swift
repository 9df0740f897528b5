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
    /// A file of one chunk or less (a thumbnail) is read whole in the same step that finds it.
    static func body(_ url: URL, removeAfter: Bool = false) async throws -> (ResponseBody, Int)? {
        let found: (size: Int, small: ByteBuffer?)? = try await NIOThreadPool.singleton.runIfActive {
            var info = stat()
            guard stat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(url.path, R_OK) == 0 else { return nil }
            let size = Int(info.st_size)
            guard size <= chunk, !removeAfter else { return (size, nil) }
            guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
            defer { try? handle.close() }
            guard let data = try? handle.read(upToCount: chunk) ?? Data() else { return nil }
            return (data.count, ByteBuffer(bytes: data))
        }
        guard let found else { return nil }
        if let small = found.small { return (ResponseBody(byteBuffer: small), found.size) }
        let size = found.size
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
