import NIOPosix

/// Runs slow CPU work (bcrypt) on NIO's thread pool, off the pool that serves requests.
enum BlockingWork {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(work)
    }
}
