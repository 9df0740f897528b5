import ArkivatorCore
import Foundation
import NIOConcurrencyHelpers
import NIOPosix

/// The web app's blocking work, in two lanes of threads of their own, so what a person waits for
/// never queues behind heavy background work, and heavy work never takes every thread:
///
/// - ``quick``: short work someone is waiting for, such as checking a password (bcrypt) and
///   making a photo's preview;
/// - ``pages``: reading pages again, hiding a number in a letter's files, making a share link's
///   PDF: one at a time (each holds a Tesseract engine and full-size pages), at nice level 10 as
///   background reading is, at most ``WorkLane/limit`` waiting; past that the answer is
///   «opptatt, prøv igjen om litt» (503).
///
/// Everything else blocking goes through the library's own threads (``AsyncLibrary``).
struct WebWork: Sendable {
    let quick = WorkLane(threads: 2, limit: 64)
    let pages = WorkLane(threads: 1, limit: 8, niceness: 10)
}

/// A fixed number of threads and a queue of limited length for one kind of blocking work.
final class WorkLane: Sendable {
    /// How many may wait (not counting those running) before more are refused.
    let limit: Int
    private let threads: Int
    /// The threads' nice value (0: as the server's).
    private let niceness: Int32
    private let pool: NIOThreadPool
    /// Work asked for and not finished (running or waiting).
    private let pending = NIOLockedValueBox(0)

    init(threads: Int, limit: Int, niceness: Int32 = 0) {
        self.threads = threads
        self.limit = limit
        self.niceness = niceness
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    deinit {
        pool.shutdownGracefully { _ in }
    }

    /// Runs `body` on one of the lane's threads; throws ``WebError/busy`` at once when
    /// ``limit`` others are waiting already.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let (threads, limit, niceness) = (threads, limit, niceness)
        let admitted = pending.withLockedValue { count -> Bool in
            guard count < threads + limit else { return false }
            count += 1
            return true
        }
        guard admitted else { throw WebError.busy }
        defer { pending.withLockedValue { $0 -= 1 } }
        return try await pool.runIfActive {
            ThreadNiceness.set(niceness)
            return try body()
        }
    }
}

extension WebError {
    /// Too much heavy work waits already (see ``WorkLane``): 503, with what to do.
    static let busy = WebError(.serviceUnavailable, code: "busy",
                               nb: "Arkivator er opptatt med andre sider akkurat nå. Prøv igjen om litt.",
                               en: "Arkivator is busy with other pages right now. Try again in a little while.")
}
