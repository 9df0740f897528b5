import ArkivatorCore
import ArkivatorLibrary
import Foundation
import NIOConcurrencyHelpers

/// The upload queue as the app works it: the worker, its background loop (``start(report:)``),
/// the queue's state in plain words (``state()``) and "Prøv igjen" (``retry(_:)``,
/// ``retryAll()``), which wakes the loop. Every call may come from Swift's cooperative pool: the
/// database and the destinations are reached on threads of their own.
public final class Uploads: Sendable {
    public let worker: UploadWorker
    /// How long a destination found unusable is taken at that word before it is checked again.
    public let checkAgainAfter: TimeInterval
    private let loop: UploadLoop
    /// Destinations checked for ``state()``: the failure found (nil: it answered), and when.
    private let checked = NIOLockedValueBox<[String: (failure: UploadFailure?, at: Date)]>([:])

    public var library: Library { worker.library }
    /// The library's async door (the worker's).
    public var store: AsyncLibrary { worker.store }

    /// - Parameters:
    ///   - idleCheck: the longest the background loop sleeps between two looks at the queue.
    ///   - checkAgainAfter: see ``checkAgainAfter``.
    public init(worker: UploadWorker, idleCheck: TimeInterval = 60, checkAgainAfter: TimeInterval = 60) {
        self.worker = worker
        self.checkAgainAfter = checkAgainAfter
        loop = UploadLoop(worker: worker, idleCheck: idleCheck)
    }

    // MARK: - The background loop

    /// Starts uploading in the background on a thread of its own (once; see ``UploadLoop``).
    /// - Parameter report: called on that thread after each pass that tried a job or met a
    ///   problem (the notify command failing, the database).
    public func start(report: @escaping @Sendable (UploadReport) -> Void = { _ in }) {
        loop.start(report: report)
    }

    /// Looks at the queue now: a document was filed, or someone asked to try again.
    public func wake() {
        loop.wake()
    }

    /// Stops the background loop: the upload in progress is cancelled (its job goes back in the
    /// queue) and the call waits, at most `timeout` seconds, for the loop's thread to end.
    public func stop(timeout: TimeInterval = 30) {
        loop.stop(timeout: timeout)
    }

    // MARK: - "Prøv igjen"

    /// Puts a job back in the queue, due now, and wakes the loop.
    /// - Throws: ``LibraryFailure`` `.noUploadJob`, `.alreadyUploaded`.
    public func retry(_ job: Int) async throws {
        try await store.write { try $0.uploads.retryUpload(job) }
        forgetChecks()
        wake()
    }

    /// Puts every job that gave up or waits for a later try back in the queue, due now, wakes
    /// the loop, and returns how many there were.
    @discardableResult
    public func retryAll() async throws -> Int {
        let count = try await store.write { try $0.uploads.retryAllUploads() }
        forgetChecks()
        wake()
        return count
    }

    private func forgetChecks() {
        checked.withLockedValue { $0.removeAll() }
    }

    // MARK: - The state

    /// The jobs, and for each destination where jobs wait after a failed try, why: the latest
    /// failure this worker met there, else what checking the destination now finds (remembered
    /// for ``checkAgainAfter`` seconds).
    /// With `checkingDestinations` false (a page opened often, such as the library's), nothing is
    /// checked now: a destination not yet checked is described by what was last found, or in
    /// general words.
    public func state(now: Date = Date(), checkingDestinations: Bool = true) async throws -> UploadQueueState {
        let staleAfter = worker.policy.staleAfter
        let (setting, jobs, status) = try await store.read { library in
            (try library.setting(.destination), try library.uploads.uploadJobs(states: [.queued, .uploading, .error]),
             try library.uploads.uploadQueueStatus(staleAfter: staleAfter))
        }
        var state = UploadQueueState(
            destination: setting, destinationName: setting.map(Self.name), jobs: jobs, pending: status.pending,
            failed: status.failed, nextTry: status.nextDue, waiting: [])
        let waitingJobs = jobs.filter { $0.waitsAfterFailure && !$0.trashed }
        var order: [String] = []
        for job in waitingJobs where !order.contains(job.destination) { order.append(job.destination) }
        for destination in order {
            let mine = waitingJobs.filter { $0.destination == destination }
            state.waiting.append(await wait(at: destination, jobs: mine, now: now, checking: checkingDestinations))
        }
        return state
    }

    private func wait(at destination: String, jobs: [UploadJob], now: Date, checking: Bool) async -> UploadWait {
        let name = Self.name(destination)
        let nextTry = jobs.compactMap { job in job.state == .error ? nil : job.nextAttemptAt.flatMap(Self.date) }.min()
        var wait = UploadWait(destination: destination, destinationName: name, reason: .other,
                              message: UploadWait.message(.other, name: name), detail: nil, jobs: jobs.count,
                              since: nil, nextTry: nextTry)
        wait.failingSince = jobs.compactMap(\.failingSinceDate).min()
        if let latest = worker.latestFailure(at: destination) {
            wait.reason = latest.failure.reason
            wait.message = UploadWait.message(latest.failure.reason, name: name)
            wait.detail = latest.failure.detail
            wait.since = latest.at
            return wait
        }
        wait.since = jobs.compactMap { Self.date($0.updatedAt) }.max()
        if !checking {
            if let known = checked.withLockedValue({ $0[destination] }), let failure = known.failure {
                wait.reason = failure.reason
                wait.message = UploadWait.message(failure.reason, name: name)
                wait.detail = failure.detail
            }
            return wait
        }
        if let failure = await check(destination, now: now) {
            wait.reason = failure.reason
            wait.message = UploadWait.message(failure.reason, name: name)
            wait.detail = failure.detail
        } else {
            wait.message = UploadWait.answersNow(name: name)
        }
        return wait
    }

    /// What checking the destination finds (nil: it answers), at most once per ``checkAgainAfter``.
    private func check(_ destination: String, now: Date) async -> UploadFailure? {
        if let known = checked.withLockedValue({ $0[destination] }), now.timeIntervalSince(known.at) < checkAgainAfter {
            return known.failure
        }
        var found: UploadFailure?
        do throws(UploadFailure) {
            try await Destination.parse(destination).check(library: library.location, environment: worker.environment, timeout: 5)
        } catch {
            found = error
        }
        checked.withLockedValue { $0[destination] = (found, now) }
        return found
    }

    static func name(_ destination: String) -> String {
        (try? Destination.parse(destination).displayName) ?? destination
    }

    static func date(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
