import ArkivatorArchive
import ArkivatorCore
import ArkivatorIntake
import ArkivatorLibrary
import ArkivatorPipeline
import Foundation
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Watches a folder and files every document that appears in it, one at a time, through the same
/// ``Pipeline`` as `ingest`, with a journal in the library so that nothing is lost or filed twice.
///
/// - A document is taken when it has been quiet for ``Options/settle`` seconds: no file event,
///   and the size and times of every file in it unchanged. A file created while watching must
///   also have been closed (or moved in); one that never is waits ``Options/unclosedSettle``.
///   Events come from inotify on the folder and every subfolder; a rescan every
///   ``Options/rescan`` seconds catches what events miss (network shares).
/// - Each document's SHA-256 is recorded in the journal before any work on it. Its original
///   moves to `processed/` only after it is filed (files flushed, row committed), or to `failed/`
///   with a `.feil.txt` note when it cannot be filed. Passing problems (database busy, disk full,
///   input/output errors) are tried again after ``Options/retryDelays``.
/// - On start, what an earlier run left unfinished is finished: a document the library holds is
///   done; one it does not is read again.
///
/// ``run()`` blocks the calling thread until ``stop()``; when idle it waits in `poll`.
///
/// `@unchecked Sendable` because it owns C file descriptors (the wake pipe, inotify) and loop
/// state that only the thread in ``run()`` touches; ``stop()``, the one call from other threads,
/// sets a lock-guarded flag and writes a byte to the wake pipe.
public final class Watcher: @unchecked Sendable {
    /// What happens to an original once its document is filed (or found in the library already).
    public enum OnSuccess: String, Sendable, CaseIterable {
        /// Into `processed/` in the watched folder, keeping its subfolders (the default).
        case move
        /// Removed.
        case delete
        /// Left where it is (it is not read again while it is unchanged).
        case keep
    }

    public struct Options: Sendable {
        /// The watched folder (created if missing).
        public var folder: URL
        /// Seconds a document must be quiet before it is read.
        public var settle: TimeInterval
        /// Seconds between full looks at the folder (for events inotify never sends).
        public var rescan: TimeInterval
        public var onSuccess: OnSuccess
        /// Waits before each new try of a passing failure; once they are used up the document
        /// has failed for good.
        public var retryDelays: [TimeInterval]
        /// The OCR engines are unloaded after this many idle seconds (made again when work comes).
        public var unloadAfter: TimeInterval
        /// How long a file that was created but never closed must be quiet before it is read.
        public var unclosedSettle: TimeInterval
        /// When, after the engines are unloaded, the process still holds more than this many bytes
        /// (the libraries the OCR work touched, a fragmented heap), ``run()`` returns
        /// ``Ending/restartToFreeMemory`` so the caller can start the program afresh; nil: never.
        public var restartAboveBytes: Int?
        /// Called on the watching thread after each document, at every rescan and when the time it
        /// last returned has come: the upload worker's next step. Returns when it wants to be called
        /// again (its next job is due), nil for "after the next document or rescan". Keep it short.
        public var betweenDocuments: (@Sendable () -> Date?)?

        public init(folder: URL, settle: TimeInterval = 3, rescan: TimeInterval = 30, onSuccess: OnSuccess = .move,
                    retryDelays: [TimeInterval] = Watcher.defaultRetryDelays, unloadAfter: TimeInterval = 120,
                    unclosedSettle: TimeInterval = 60, restartAboveBytes: Int? = nil,
                    betweenDocuments: (@Sendable () -> Date?)? = nil) {
            self.folder = folder
            self.settle = max(0, settle)
            self.rescan = max(1, rescan)
            self.onSuccess = onSuccess
            self.retryDelays = retryDelays
            self.unloadAfter = max(0, unloadAfter)
            self.unclosedSettle = unclosedSettle
            self.restartAboveBytes = restartAboveBytes
            self.betweenDocuments = betweenDocuments
        }
    }

    /// 1 minute, 5 minutes, 30 minutes, 2 hours: four more tries, then failed for good.
    public static let defaultRetryDelays: [TimeInterval] = [60, 300, 1800, 7200]

    /// What the watcher reports, one event per document (and a few about itself).
    public enum Event: Sendable {
        /// Watching has begun.
        case watching(folder: URL)
        /// Documents an earlier run left unfinished, taken up again now.
        case resuming(count: Int)
        /// Read and filed now. `source` is relative to the watched folder.
        case filed(DocumentRecord, source: String, movedTo: [String])
        /// Filed by an earlier run that stopped before it could move the original; finished now.
        case finishedEarlier(source: String, title: String, id: String, movedTo: [String])
        /// The library already had it: nothing was filed.
        case duplicate(source: String, message: UserMessage, movedTo: [String])
        /// Could not be filed: tried again at `retryAt`, or (nil) moved to `failed/` with a note.
        case failed(source: String, failure: DocumentFailure, retryAt: Date?, movedTo: [String], note: String?)
        /// A problem outside any one document (the database, the folder); work goes on.
        case problem(UserMessage)
        /// Stopping after a signal.
        case stopping
    }

    /// Why ``run()`` returned.
    public enum Ending: Sendable, Equatable {
        /// ``stop()`` was called.
        case stopped
        /// Idle with the engines unloaded, but above ``Options/restartAboveBytes``: everything is
        /// journalled, so starting the program again (same arguments) loses nothing.
        case restartToFreeMemory
    }

    public let options: Options
    let library: Library
    private let makePipeline: @Sendable () throws -> Pipeline
    let report: @Sendable (Event) -> Void
    /// The watched folder's path, without a trailing slash.
    let root: String

    // Stopping: set from any thread, read by the loop.
    private let stopRequested = NIOLockedValueBox(false)
    private let wakePipe: [Int32]

    /// The time: `Date()` in use; tests may give another clock.
    let clock: @Sendable () -> Date

    // The loop's state: only the thread in `run()` touches these.
    private var pipeline: Pipeline?
    /// The household as it stood when the pipeline was made: a member added or changed since
    /// (on the web app's family page, by `arkivator family`) makes it again, so the next letter
    /// about them is matched to them.
    private var pipelineFamily: [FamilyMemberSummary]?
    private var lastWork: Date
    /// When each document is read (see ``WatchSchedule``).
    var schedule: WatchSchedule
    private var lastScan = Date.distantPast
    /// Names the folder walk refused that were reported already (each is said once while it stays).
    private var refused: Set<String> = []

    /// - Parameters:
    ///   - makePipeline: makes the OCR pipeline (with the library in its archive options) when the
    ///     first document arrives, and again after the engines were unloaded.
    ///   - report: called on the watching thread for each event.
    public init(library: Library, options: Options, makePipeline: @escaping @Sendable () throws -> Pipeline,
                clock: @escaping @Sendable () -> Date = { Date() },
                report: @escaping @Sendable (Event) -> Void) throws {
        self.library = library
        self.options = options
        self.clock = clock
        self.lastWork = clock()
        self.schedule = WatchSchedule(settle: options.settle, unclosedSettle: options.unclosedSettle)
        self.makePipeline = makePipeline
        self.report = report
        var path = options.folder.standardizedFileURL.path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        root = path
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw WatcherError.system("pipe", path: "", errno: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakePipe = fds
    }

    deinit {
        for fd in wakePipe where fd >= 0 { close(fd) }
    }

    /// Asks ``run()`` to return once the current document is finished. Safe from any thread, but
    /// not from a C signal handler: take signals with `sigwait` on a thread (as `watch` does).
    public func stop() {
        stopRequested.withLockedValue { $0 = true }
        var byte: UInt8 = 1
        _ = write(wakePipe[1], &byte, 1)
    }

    var isStopping: Bool {
        stopRequested.withLockedValue { $0 }
    }

    // MARK: - The loop

    /// Watches until ``stop()`` (or, see ``Options/restartAboveBytes``, until a fresh start would
    /// give memory back). Throws only when watching cannot start or the OCR engines cannot be
    /// made; every problem with a document or the library is reported and retried instead.
    @discardableResult
    public func run() throws -> Ending {
        try AtomicFile.createDirectory(URL(fileURLWithPath: root))
        #if canImport(Glibc)
        let inotify = try Inotify()
        #endif
        report(.watching(folder: URL(fileURLWithPath: root)))
        resume()
        var nextRescan = clock()
        var nextStep: Date?
        while !isStopping {
            let now = clock()
            let scan = Self.scan(root)
            let (found, folders) = (scan.documents, scan.folders)
            lastScan = now
            reportRefusals(scan.problems)
            #if canImport(Glibc)
            for folder in folders { inotify.watch(folder) }
            inotify.keepOnly(Set(folders))
            inotify.missedEvents = false
            #endif
            let documents = found.map(\.scheduled)
            schedule.forget(except: documents, now: now, exists: { access($0, F_OK) == 0 })
            let (ready, planned) = schedule.next(among: documents, now: now, wake: nextRescan)
            var wake = planned
            if let ready, let next = found.first(where: { $0.key == ready.key }) {
                try process(next)
                schedule.finished(next.key)
                lastWork = clock()
                nextStep = options.betweenDocuments?() ?? nil
                continue
            }
            if now >= nextRescan {
                nextRescan = now.addingTimeInterval(options.rescan)
                wake = min(wake, nextRescan)
                nextStep = options.betweenDocuments?() ?? nil
            } else if let due = nextStep, due <= now {
                nextStep = options.betweenDocuments?() ?? nil
            }
            // Wake for the next upload too, but never more than once a second for it.
            if let due = nextStep { wake = min(wake, max(due, now.addingTimeInterval(1))) }
            if pipeline != nil {
                let unloadAt = lastWork.addingTimeInterval(options.unloadAfter)
                if unloadAt <= now {
                    unloadPipeline()
                    if let limit = options.restartAboveBytes, let resident = Self.residentBytes(), resident > limit,
                       !schedule.isTracking, !isStopping {
                        return .restartToFreeMemory
                    }
                } else {
                    wake = min(wake, unloadAt)
                }
            }
            #if canImport(Glibc)
            waitForEvents(inotify, until: wake)
            if inotify.missedEvents { nextRescan = clock() }
            #else
            waitForEvents(until: wake)
            #endif
        }
        report(.stopping)
        return .stopped
    }

    /// Says once for each refused name (a symlink out of the folder, a FIFO) why it is not read.
    private func reportRefusals(_ problems: [FolderWalk.Problem]) {
        let paths = Set(problems.map(\.path))
        for problem in problems where !refused.contains(problem.path) {
            report(.problem(problem.userMessage))
        }
        refused = paths
    }

    #if canImport(Glibc)
    /// Sleeps in `poll` until `deadline`, a file event or ``stop()``; events are noted.
    private func waitForEvents(_ inotify: Inotify, until deadline: Date) {
        while !isStopping {
            let left = deadline.timeIntervalSinceNow
            var fds = [pollfd(fd: inotify.descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakePipe[0], events: Int16(POLLIN), revents: 0)]
            let milliseconds = Int32(max(0, min(left, 3600)) * 1000)
            let count = poll(&fds, nfds_t(fds.count), milliseconds)
            if count < 0 && errno == EINTR { continue }
            drainWakePipe()
            guard count > 0, fds[0].revents != 0 else { return }
            note(inotify.read())
            // Let a burst of events settle a little before looking at the folder again.
            if clock().timeIntervalSince(lastScan) >= 0.2 || inotify.missedEvents { return }
            let pause = 0.2 - clock().timeIntervalSince(lastScan)
            if pause > 0 { _ = poll(&fds[1], 1, Int32(pause * 1000)) }
            drainWakePipe()
            note(inotify.read())
            return
        }
    }

    private func note(_ events: [Inotify.Event]) {
        schedule.note(events.map {
            WatchSchedule.FileEvent(path: $0.path, folder: $0.folder, isDirectory: $0.isDirectory,
                                    isCreate: $0.isCreate, isComplete: $0.isComplete)
        }, at: clock())
    }
    #else
    private func waitForEvents(until deadline: Date) {
        var fds = [pollfd(fd: wakePipe[0], events: Int16(POLLIN), revents: 0)]
        let milliseconds = Int32(max(0, min(deadline.timeIntervalSinceNow, 3600)) * 1000)
        _ = poll(&fds, nfds_t(fds.count), milliseconds)
        drainWakePipe()
    }
    #endif

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakePipe[0], &buffer, buffer.count) > 0 {}
    }

    // MARK: - The OCR engines

    /// The pipeline, made now if it was unloaded or the household changed.
    func loadPipeline() throws -> Pipeline {
        let family = try? library.familyMembers()
        if let pipeline, family == pipelineFamily { return pipeline }
        let made = try makePipeline()
        pipeline = made
        pipelineFamily = family
        return made
    }

    /// Frees the engines (and what the allocator and SQLite hold) while nothing arrives.
    private func unloadPipeline() {
        pipeline = nil
        pipelineFamily = nil
        library.releaseMemory()
        Self.trimMemory()
    }

    /// This process's resident memory (`VmRSS`), in bytes; nil where it cannot be read.
    static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
            return nil
        }
        return kib * 1024
    }

    #if canImport(Glibc)
    private typealias MallocTrim = @convention(c) (Int) -> Int32
    /// glibc's `malloc_trim` (not in Swift's Glibc module): gives freed memory back to the system.
    private static let mallocTrim: MallocTrim? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: MallocTrim.self)
    }()
    #endif

    static func trimMemory() {
        #if canImport(Glibc)
        _ = mallocTrim?(0)
        #endif
    }
}
