import Foundation
import NIOConcurrencyHelpers

/// The library's read-only connections: a few kept open and lent to one caller at a time, so
/// reads never wait for the writer's lock (nor for each other).
///
/// Each call runs in a read transaction of its own, begun when it starts: it sees everything
/// committed before then, and one consistent state throughout (a count and the page it goes with
/// agree). In WAL mode the writer never waits for a reader. When every kept connection is lent,
/// another is opened for the call and closed after it, so a burst of reads costs memory only
/// while it lasts.
final class ReadConnections: Sendable {
    /// The most connections kept open between calls (each holds its own page cache).
    static let kept = 4

    private let url: URL
    /// Connections not lent out now.
    private let idle = NIOLockedValueBox<[Database]>([])

    init(url: URL) {
        self.url = url
    }

    /// Runs `body` with a read-only connection, in a read transaction that ends with the call.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let database = try idle.withLockedValue { $0.popLast() } ?? Database(readingFrom: url)
        var reusable = true
        defer {
            if reusable { idle.withLockedValue { if $0.count < Self.kept { $0.append(database) } } }
        }
        try database.execute(script: "BEGIN")
        do {
            let result = try body(database)
            try database.execute(script: "COMMIT")
            return result
        } catch {
            if database.isInTransaction {
                do { try database.execute(script: "ROLLBACK") } catch { reusable = false }
            }
            throw error
        }
    }

    /// Closes the connections not in use, giving back their page caches (they open again on use).
    func closeIdle() {
        // Returned and dropped, so they close after the lock is released.
        _ = idle.withLockedValue { idle in
            defer { idle = [] }
            return idle
        }
    }
}
