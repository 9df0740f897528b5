import ArkivatorCore
import ArkivatorLibrary
import Dispatch
import Foundation
import NIOConcurrencyHelpers

/// The upload worker at work in the background, on a thread of its own (never on Swift's
/// cooperative pool): it uploads what is due, then sleeps until the next job is due, at most
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
            let pass = Task.detached { await worker.runDueJobs() }
            let stopped = state.withLockedValue { state -> Bool in
                state.pass = pass
                return state.stopped
            }
            if stopped { pass.cancel() }
            let done = BlockingWait.run { await pass.value }
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
        guard let status = try? worker.library.uploadQueueStatus(staleAfter: worker.policy.staleAfter),
              status.pending > 0, let next = status.nextDue else { return idleCheck }
        let floor = pass.busy ? 5 : pass.entries.isEmpty ? 0.5 : 0.05
        return min(max(next.timeIntervalSinceNow, floor), idleCheck)
    }
}
