import Foundation
import NIOPosix

/// The library's async face, for code that runs on Swift's cooperative pool (the web app).
///
/// Every call hops to threads of the library's own: reads to a small pool (each read uses one of
/// the library's read-only connections, so a long write never holds them up), changes to one
/// thread of their own, in order. The caller's thread is never blocked by SQLite, a file or an
/// `fsync`: on a two-core machine the cooperative pool has two threads, and one blocked thread
/// would stall half of every other request.
public final class AsyncLibrary: Sendable {
    let library: Library
    private let readers: NIOThreadPool
    private let writer: NIOThreadPool

    /// The number of threads that run reads at the same time.
    public static let readerThreads = 3

    public init(_ library: Library) {
        self.library = library
        readers = NIOThreadPool(numberOfThreads: Self.readerThreads)
        writer = NIOThreadPool(numberOfThreads: 1)
        readers.start()
        writer.start()
    }

    deinit {
        readers.shutdownGracefully { _ in }
        writer.shutdownGracefully { _ in }
    }

    /// Runs `body` (reads only) on a reader thread.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Library) throws -> T) async throws -> T {
        let library = self.library
        return try await readers.runIfActive { try body(library) }
    }

    /// Runs `body` (a change, or file work such as an `fsync`) on the writer thread, after the
    /// changes asked for before it.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Library) throws -> T) async throws -> T {
        let library = self.library
        return try await writer.runIfActive { try body(library) }
    }

    /// Runs blocking file work that does not touch the database (reading a directory, writing
    /// an uploaded page) on a reader thread.
    public func files<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await readers.runIfActive { try body() }
    }
}
