import Foundation
import NIOConcurrencyHelpers
import NIOPosix

/// The library's async face, for code that runs on Swift's cooperative pool (the web app).
///
/// Every call hops to threads of the library's own, so the caller's thread is never blocked by
/// SQLite, a file or an `fsync`: on a two-core machine the cooperative pool has two threads, and
/// one blocked thread would stall half of every other request.
///
/// - ``read(_:)`` runs on a small pool (``readerThreads``); the library's read methods use its
///   read-only connections, so a long change never holds a read up.
/// - ``write(_:)`` runs on one thread of its own, changes in the order they were asked for.
/// - ``files(_:)`` and ``backupSnapshot()`` run on threads of their own (``fileThreads``): a
///   64 MB upload written with `fsync`, or a backup of a large library, never takes a reader's
///   or the writer's thread.
///
/// Call ``shutdown()`` before letting go of it: it lets the work already asked for finish. A call
/// made after it throws ``LibraryFailure`` `.closed`.
public final class AsyncLibrary: Sendable {
    public let library: Library
    private let readers: NIOThreadPool
    private let writer: NIOThreadPool
    private let fileWork: NIOThreadPool
    /// True once ``shutdown()`` has begun: no more work is taken.
    private let closed = NIOLockedValueBox(false)

    /// The number of threads that run reads at the same time: one per core, at least two and at
    /// most four (each read holds one of the library's read-only connections while it runs).
    public static let readerThreads = min(4, max(2, ProcessInfo.processInfo.activeProcessorCount))
    /// The number of threads for blocking file work (uploads, backups).
    public static let fileThreads = 2

    public init(_ library: Library) {
        self.library = library
        readers = NIOThreadPool(numberOfThreads: Self.readerThreads)
        writer = NIOThreadPool(numberOfThreads: 1)
        fileWork = NIOThreadPool(numberOfThreads: Self.fileThreads)
        for pool in [readers, writer, fileWork] { pool.start() }
    }

    deinit {
        // Without `shutdown()`: the running work finishes, work not yet begun is cancelled.
        if !closed.withLockedValue({ $0 }) {
            for pool in [readers, writer, fileWork] { pool.shutdownGracefully { _ in } }
        }
    }

    /// Runs `body` (reads only) on a reader thread.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Library) throws -> T) async throws -> T {
        let library = self.library
        return try await run(on: readers) { try body(library) }
    }

    /// Runs `body` (a change) on the writer thread, after the changes asked for before it.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Library) throws -> T) async throws -> T {
        let library = self.library
        return try await run(on: writer) { try body(library) }
    }

    /// Runs blocking file work (reading a directory, writing an uploaded page and its `fsync`) on
    /// a thread for file work, never a reader's or the writer's.
    public func files<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await run(on: fileWork, body)
    }

    /// Makes a backup of the database from a snapshot (see ``Library/backupSnapshot()``) on a
    /// thread for file work, and returns the private file in the library folder that holds it:
    /// the caller sends it on and removes it. Reads and changes go on meanwhile.
    public func backupSnapshot() async throws -> URL {
        let library = self.library
        return try await run(on: fileWork) { try library.backupSnapshot() }
    }

    /// Stops taking work, lets the work already asked for finish, and stops the threads. Safe to
    /// call more than once.
    public func shutdown() async {
        let already = closed.withLockedValue { closed in
            defer { closed = true }
            return closed
        }
        guard !already else { return }
        for pool in [readers, writer, fileWork] {
            // A pool takes work in order: once this has run, all work asked for before it has begun,
            // and shutting down waits for the work that runs.
            _ = try? await pool.runIfActive {}
            try? await pool.shutdownGracefully()
        }
    }

    private func run<T: Sendable>(on pool: NIOThreadPool, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        guard !closed.withLockedValue({ $0 }) else { throw LibraryFailure.closed }
        do {
            return try await pool.runIfActive(body)
        } catch is CancellationError where closed.withLockedValue({ $0 }) {
            // Asked for just as the shutdown began, and not run.
            throw LibraryFailure.closed
        }
    }
}
