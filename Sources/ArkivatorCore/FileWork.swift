import NIOPosix

/// The one bounded place for blocking file, process and network work that is not the library's
/// (copies to the family's storage, `rclone`, a WebDAV request's body read from disk): a fixed
/// number of threads (``threads``) of its own, off Swift's cooperative pool, so a slow disk or a
/// hanging child process never holds up other tasks, and a burst of such work waits in line
/// instead of starting a thread each. The library's own work goes through `AsyncLibrary`; the
/// page work of the web app through its lanes. (The other way round, from a thread that may block
/// to async work, is ``BlockingWait``.)
public enum FileWork {
    /// How many run at once: more than the cores, since most of the time they wait on a disk,
    /// a child process or the network.
    public static let threads = 8

    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        return pool
    }()

    /// Runs `body` on one of the threads, after the work asked for before it has begun, and
    /// returns (or throws) what it did.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }
}
