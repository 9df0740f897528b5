import Dispatch

/// Runs blocking work (file copies, SQLite, child processes, `fsync`) on Dispatch threads, off
/// Swift's cooperative pool, so a slow disk or a waiting lock never holds up other tasks. (The
/// other way round, from a thread that may block to async work, is ``BlockingWait``.)
public enum Blocking {
    private static let queue = DispatchQueue(label: "arkivator.blocking", qos: .utility, attributes: .concurrent)

    /// Runs `body` on a Dispatch thread and returns (or throws) what it did.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
