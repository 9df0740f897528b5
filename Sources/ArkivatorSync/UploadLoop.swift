import ArkivatorCore
import ArkivatorLibrary
import Dispatch
import Foundation
import NIOConcurrencyHelpers

/// The upload worker at work in the background, on threads of its own: the loop on a thread, the
/// passes on an executor of their own (``UploadExecutor``), so neither blocks Swift's cooperative
/// pool nor waits for it when the pool is busy. It uploads what is due, then sleeps until the next
/// job is due, at most
/// ``idleCheck`` seconds (so jobs another process queued are found), or until ``wake()``: a
/// document was filed, or the person asked to try again. ``stop()`` cancels the pass in progress
/// (the job being uploaded goes back in the queue) and waits for the thread to end.
final class UploadLoop: Sendable {
    let worker: UploadWorker
    /// The longest sleep between two looks at the queue.
    let idleCheck: TimeInterval
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let state = NIOLockedValueBox(State())
    private let executor = UploadExecutor()

    private struct State {
        var started = false
        var stopped = false
        /// The pass in progress.
        var pass: Task<UploadReport, Never>?
    }

    init(worker: UploadWorker, idleCheck: TimeInterval = 60) {
        self.worker = worker
        self.idleCheck = max(0.1, idleCheck)
    }

    /// Starts the thread (once).
    /// - Parameter report: called on the loop's thread after each pass that tried a job or met a problem.
    func start(report: @escaping @Sendable (UploadReport) -> Void) {
        let first = state.withLockedValue { state -> Bool in
            defer { state.started = true }
            return !state.started && !state.stopped
        }
        guard first else { return }
        let thread = Thread { [self] in
            loop(report: report)
            finished.signal()
        }
        thread.name = "arkivator-uploads"
        thread.start()
    }

    /// Makes the loop look at the queue now (from any thread; cheap).
    func wake() {
        wakeUp.signal()
    }

    /// Stops the loop: the pass in progress is cancelled, and the call waits (at most `timeout`
    /// seconds) for the thread to end.
    func stop(timeout: TimeInterval = 30) {
        let (pass, wasStarted) = state.withLockedValue { state in
            state.stopped = true
            return (state.pass, state.started)
        }
        pass?.cancel()
        wakeUp.signal()
        if wasStarted { _ = finished.wait(timeout: .now() + timeout) }
    }

    private var isStopped: Bool { state.withLockedValue { $0.stopped } }

    private func loop(report: @Sendable (UploadReport) -> Void) {
        let worker = worker
        while !isStopped {
            let result = NIOLockedValueBox(UploadReport())
            let finishedPass = DispatchSemaphore(value: 0)
            let pass = executor.task {
                let report = await worker.runDueJobs()
                result.withLockedValue { $0 = report }
                finishedPass.signal()
                return report
            }
            let stopped = state.withLockedValue { state -> Bool in
                state.pass = pass
                return state.stopped
            }
            if stopped { pass.cancel() }
            finishedPass.wait()
            let done = result.withLockedValue { $0 }
            state.withLockedValue { $0.pass = nil }
            if !done.entries.isEmpty || !done.problems.isEmpty { report(done) }
            guard !isStopped else { break }
            _ = wakeUp.wait(timeout: .now() + sleep(after: done))
            while wakeUp.wait(timeout: .now()) == .success {}
        }
    }

    /// Seconds until the next look: until the next job is due, at most ``idleCheck``; a little
    /// longer when another process is uploading, or when the pass found nothing it could take.
    private func sleep(after pass: UploadReport) -> TimeInterval {
        guard let status = try? worker.library.uploads.uploadQueueStatus(staleAfter: worker.policy.staleAfter),
              status.pending > 0, let next = status.nextDue else { return idleCheck }
        let floor = pass.busy ? 5 : pass.entries.isEmpty ? 0.5 : 0.05
        return min(max(next.timeIntervalSinceNow, floor), idleCheck)
    }
}

/// Runs the upload passes' async work on one Dispatch queue of their own instead of Swift's
/// cooperative pool (a task executor preference): a pool kept busy elsewhere (requests that block,
/// a test run) never holds the uploads up.
final class UploadExecutor: Sendable {
    private let queue = DispatchQueue(label: "arkivator.uploads")

    /// Starts `body` as a task that prefers this executor.
    func task(_ body: @escaping @Sendable () async -> UploadReport) -> Task<UploadReport, Never> {
        if #available(macOS 15.0, *) {
            return Task(executorPreference: QueueExecutor(queue: queue), operation: body)
        }
        return Task.detached(operation: body)
    }
}

@available(macOS 15.0, *)
private final class QueueExecutor: TaskExecutor {
    let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
