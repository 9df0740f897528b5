import ArkivatorCore
import ArkivatorLibrary
import Dispatch
import Foundation
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Works through the upload queue, a batch of due jobs at a time: each job is taken
/// (`uploading`), its letter's copy brought in line with the archive (see ``steps(for:)``),
/// and the batch recorded in one transaction (the job `done`, the letter `copied`). A failed try
/// is recorded by its kind (``UploadFailure/Kind``):
///
/// - passing errors and a full destination: tried again after 1, 2, 4, 8 and 16 s, then after
///   doubling waits up to ``UploadPolicy/longestDelay``, for as long as it takes; the household
///   is told once the copies have failed for ``UploadPolicy/tellAfter``;
/// - a refused login or unusable credentials: the job stays `queued`, no try is used up, the
///   next try comes after ``UploadPolicy/loginRetryDelay`` (or at once with `arkivator upload`),
///   and the notify command runs the first time;
/// - anything else (other HTTP 4xx, a missing archive file, no rclone): gives up at once.
///
/// After a failure that would hit every file the same way (passing, full, login), the rest of
/// the pass leaves that destination alone and records the same failure on its jobs.
///
/// Only one worker works at a time per library: a pass holds an exclusive `flock` on
/// `<library>/uploads.lock` (another process's pass returns at once with ``UploadReport/busy``).
/// Holding it, the worker knows any `uploading` job was left by a process that died and puts
/// it back in the queue; without the lock (a file system without `flock`), a job left
/// `uploading` for ``UploadPolicy/staleAfter`` seconds is due again (a live uploader touches the
/// jobs it holds every few seconds).
///
/// Files are copied, the database is read and written, and child programs run on Dispatch
/// threads, off the cooperative pool.
public final class UploadWorker: Sendable {
    public let library: Library
    /// The notify command given on the command line (`--notify`); else the `notify` setting.
    public let notifyCommand: String?
    public let policy: UploadPolicy
    /// For `ARKIVATOR_WEBDAV_*`, `PATH` and rclone's own variables.
    public let environment: [String: String]
    /// The latest failed try per destination setting, since this worker was made; a job done
    /// there clears it (see ``latestFailure(at:)``).
    private let failures = NIOLockedValueBox<[String: LatestFailure]>([:])
    /// Destinations whose copies have failed for longer than ``UploadPolicy/tellAfter`` and the
    /// household has been told so (once, until a copy gets through there again).
    let told = NIOLockedValueBox<Set<String>>([])

    /// A destination's latest failed try: what went wrong, and when.
    public struct LatestFailure: Sendable, Equatable {
        public var failure: UploadFailure
        public var at: Date
    }

    public init(library: Library, notify: String? = nil, policy: UploadPolicy = UploadPolicy(),
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.library = library
        self.notifyCommand = notify
        self.policy = policy
        self.environment = environment
    }

    /// What went wrong the last time this worker tried `destination` (a setting value), nil when
    /// it has not failed there since it was made, or a job has been done there since.
    public func latestFailure(at destination: String) -> LatestFailure? {
        failures.withLockedValue { $0[destination] }
    }

    // MARK: - Passes

    /// One pass: every job due now, once (with `includeWaiting`, also those waiting for a later
    /// try: what `arkivator upload` does), at most `maxJobs` of them, oldest first. A job that
    /// fails is not tried again in the same pass.
    public func runPass(includeWaiting: Bool = false, maxJobs: Int = .max) async -> UploadReport {
        var report = UploadReport()
        let lock = UploadLock.take(library.location.directory)
        if case .busy = lock {
            report.busy = true
            return report
        }
        defer { lock.release() }
        let (library, policy) = (library, policy)
        var destinations: [String: any UploadDestination] = [:]
        var blocked: [String: UploadFailure] = [:]
        do {
            if case .held = lock { _ = try await Blocking.run { try library.requeueInterruptedUploads() } }
            await removeOrphans(destinations: &destinations, report: &report)
            let due = try await Blocking.run { try library.dueUploads(includeWaiting: includeWaiting, staleAfter: policy.staleAfter) }
            var next = 0
            while next < due.count, !Task.isCancelled, report.entries.count < maxJobs {
                let ids = Array(due[next...].prefix(min(Self.batchSize, maxJobs - report.entries.count)))
                next += ids.count
                let jobs = try await Blocking.run {
                    try library.claimUploads(ids, includeWaiting: includeWaiting, staleAfter: policy.staleAfter)
                }
                report.entries += await copy(jobs, destinations: &destinations, blocked: &blocked)
            }
        } catch {
            report.problems.append(UserMessage(error: error))
        }
        for destination in destinations.values { await destination.close() }
        report.problems += await notify(report)
        return report
    }

    /// Passes until nothing is due now (new jobs, jobs whose wait ran out during a pass), or
    /// `maxJobs` jobs were tried; returns without waiting for jobs due later. This is what `watch`
    /// calls between documents.
    public func runDueJobs(maxJobs: Int = .max) async -> UploadReport {
        var report = UploadReport()
        while !Task.isCancelled, report.entries.count < maxJobs {
            let pass = await runPass(maxJobs: maxJobs - report.entries.count)
            report.merge(pass)
            if pass.entries.isEmpty || pass.busy { break }
        }
        return report
    }

    /// ``runDueJobs()`` for code outside Swift concurrency (a worker thread): blocks the calling
    /// thread until it returns. Never call it on the cooperative pool.
    @available(*, noasync, message: "call runDueJobs() from async code")
    public func runDueJobsAndWait(maxJobs: Int = .max) -> UploadReport {
        BlockingWait.run { await self.runDueJobs(maxJobs: maxJobs) }
    }

    /// Works until no job is pending (every one `done` or `error`) or `deadline` passes, sleeping
    /// until the next job is due in between; stops early when the task is cancelled.
    public func run(until deadline: Date) async -> UploadReport {
        var report = UploadReport()
        while !Task.isCancelled {
            let passes = await runDueJobs()
            report.merge(passes)
            guard Date() < deadline else { break }
            let library = library, staleAfter = policy.staleAfter
            guard let status = try? await Blocking.run({ try library.uploadQueueStatus(staleAfter: staleAfter) }),
                  status.pending > 0, let next = status.nextDue else { break }
            let wait = min(max(next.timeIntervalSinceNow, passes.busy ? 1 : 0.05), deadline.timeIntervalSinceNow)
            guard wait > 0 else { break }
            try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
        }
        return report
    }

    // MARK: - Jobs

    /// Jobs taken, read and recorded together: one transaction each way per batch, not per letter.
    static let batchSize = 64

    /// Brings the letters of a batch of jobs in line at their destinations: each letter's steps
    /// (see ``steps(for:)``) are handed to its destination together (a folder does them side by
    /// side); what they did is recorded in one transaction at the end, a failed job's own failure
    /// at once. While they run, the jobs are touched every few seconds (see ``UploadPolicy/staleAfter``).
    /// Stopped (cancelled) partway, the jobs not done are put back in the queue as they were.
    private func copy(_ jobs: [UploadJob], destinations: inout [String: any UploadDestination],
                      blocked: inout [String: UploadFailure]) async -> [UploadReport.Entry] {
        guard !jobs.isEmpty else { return [] }
        let library = library
        let plans: [MirrorPlan]
        do {
            plans = try await Blocking.run { try library.mirrorPlans(of: jobs) }
        } catch {
            var entries: [UploadReport.Entry] = []
            for job in jobs { entries.append(await record(Self.failure(error), for: job, entry: Self.entry(job))) }
            return entries
        }
        var entries = plans.map { Self.entry($0.job) }
        var progress = plans.map { MirrorProgress(destination: $0.job.destination) }
        var failed: [(Int, any Error)] = []
        // The letters with steps to take, by destination: (index, steps, the record of each step's file).
        var work: [String: [(index: Int, steps: [MirrorStep], records: [RemoteFileRecord?])]] = [:]
        for (index, plan) in plans.enumerated() {
            do {
                if let failure = blocked[plan.job.destination] { throw failure }
                _ = try open(plan.job.destination, in: &destinations)
                let (steps, records, unchanged) = try Self.steps(for: plan)
                entries[index].unchanged = unchanged
                if steps.isEmpty {
                    progress[index].completing = (plan.job.id, plan.job.generation)
                } else {
                    work[plan.job.destination, default: []].append((index, steps, records))
                }
            } catch {
                failed.append((index, error))
            }
        }
        for (setting, letters) in work.sorted(by: { $0.key < $1.key }) {
            guard let destination = destinations[setting] else { continue }
            let ids = letters.map { plans[$0.index].job.id }
            // Touches the jobs every few seconds while they run; stopped (never waited for) after.
            let toucher = Task.detached {
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: 5_000_000_000)
                    if Task.isCancelled { return }
                    try? await Blocking.run { try library.touchUploads(ids) }
                }
            }
            let outcomes = await destination.perform(letters: letters.map(\.steps))
            toucher.cancel()
            for (letter, outcome) in zip(letters, outcomes) {
                let index = letter.index
                for (step, result) in outcome.done.enumerated() {
                    switch letter.steps[step] {
                    case .move(let from, _): progress[index].removed.append(from)
                    case .remove(let path): progress[index].removed.append(path)
                    case .upload: break
                    }
                    if let record = letter.records[step] { progress[index].placed.append(record) }
                    switch result {
                    case .moved: entries[index].moved += 1
                    case .uploaded(.uploaded): entries[index].uploaded += 1
                    case .uploaded(.unchanged): entries[index].unchanged += 1
                    case .removed: entries[index].removed += 1
                    }
                }
                if let stopped = outcome.stopped {
                    failed.append((index, stopped))
                } else {
                    progress[index].completing = (plans[index].job.id, plans[index].job.generation)
                }
            }
        }
        for (index, error) in failed.sorted(by: { $0.0 < $1.0 }) {
            let job = plans[index].job
            if error is CancellationError {
                try? await Blocking.run { try library.releaseUploads([job.id]) }
                entries[index].outcome = .retrying
            } else {
                let failure = Self.failure(error)
                if failure.blocksDestination { blocked[job.destination] = failure }
                entries[index] = await record(failure, for: job, entry: entries[index])
            }
        }
        let done = progress
        do {
            try await Blocking.run { try library.recordMirror(done) }
        } catch {
            // Not recorded: the jobs stay `uploading` and are done again (every step is safe to repeat).
            return entries.map { entry in
                var entry = entry
                if entry.outcome == .done { entry.outcome = .retrying; entry.message = UserMessage(error: error) }
                return entry
            }
        }
        let completed = done.compactMap { $0.completing?.id }
        for destination in Set(done.filter { $0.completing != nil }.map(\.destination)) {
            failures.withLockedValue { $0[destination] = nil }
            _ = told.withLockedValue { $0.remove(destination) }
        }
        if let now = try? await Blocking.run({ try library.uploadJobs(completed) }) {
            var byID: [Int: UploadJob] = [:]
            for job in now { byID[job.id] = job }
            for index in entries.indices where entries[index].outcome == .done {
                entries[index].job = byID[entries[index].job.id] ?? entries[index].job
            }
        }
        return entries
    }

    /// What brings one letter at its destination in line with the archive: each file the
    /// destination should hold is left when the library recorded it there with the same content
    /// (counted in `unchanged`), moved when the destination holds that content at a place no
    /// longer wanted (a corrected name, the trash), else sent; then the letter's recorded files
    /// no longer wanted are removed. Each step is safe to repeat: after a crash the job is done
    /// again from the top, a move whose source is gone falls back to a copy (which leaves a file
    /// with the same bytes alone), and a removal of a file already gone is fine. Nothing the
    /// library did not record is ever moved or removed. `records` holds, for each step, the file
    /// it puts in place (nil for a removal).
    static func steps(for plan: MirrorPlan) throws -> (steps: [MirrorStep], records: [RemoteFileRecord?], unchanged: Int) {
        let job = plan.job
        if let missing = plan.wanted.first(where: { $0.size < 0 }) { throw UploadFailure.missingFile(missing.file.path) }
        let wantedPaths = Set(plan.wanted.map(\.path))
        var atPlace: [String: RemoteFileRecord] = [:]
        for record in plan.recorded { atPlace[record.path] = record }
        var spare = plan.recorded.filter { !wantedPaths.contains($0.path) }
        var steps: [MirrorStep] = []
        var records: [RemoteFileRecord?] = []
        var unchanged = 0
        for file in plan.wanted {
            let record = RemoteFileRecord(path: file.path, documentNumber: job.documentNumber, sha256: file.sha256, size: file.size)
            if let known = atPlace[file.path], known.sha256 == file.sha256 {
                unchanged += 1
            } else if let index = spare.firstIndex(where: { $0.sha256 == file.sha256 }) {
                steps.append(.move(from: spare.remove(at: index).path, file: file.file))
                records.append(record)
            } else {
                steps.append(.upload(file.file))
                records.append(record)
            }
        }
        for old in spare {
            steps.append(.remove(old.path))
            records.append(nil)
        }
        return (steps, records, unchanged)
    }

    private static func entry(_ job: UploadJob, outcome: UploadReport.Outcome = .done) -> UploadReport.Entry {
        UploadReport.Entry(job: job, outcome: outcome, uploaded: 0, unchanged: 0, message: nil, failure: nil)
    }

    private static func failure(_ error: any Error) -> UploadFailure {
        error as? UploadFailure
            ?? UploadFailure(.transient, nb: UserMessage(error: error).norwegian, en: UserMessage(error: error).english)
    }

    /// Removes the copies of letters that were purged (emptied from the trash) at the
    /// destination set now; returns how many went.
    private func removeOrphans(destinations: inout [String: any UploadDestination], report: inout UploadReport) async {
        let library = library
        guard let setting = try? await Blocking.run({ try library.setting(.destination) }), !setting.isEmpty,
              let orphans = try? await Blocking.run({ try library.orphanRemoteFiles(at: setting) }), !orphans.isEmpty else { return }
        do {
            let destination = try open(setting, in: &destinations)
            for orphan in orphans {
                if Task.isCancelled { return }
                try await destination.remove(orphan.path)
                try await Blocking.run { try library.forgetRemoteFile(orphan.path, at: setting) }
                report.removedOrphans += 1
            }
        } catch {
            report.problems.append(UserMessage(error: error))
        }
    }

    private func record(_ failure: UploadFailure, for job: UploadJob, entry: UploadReport.Entry) async -> UploadReport.Entry {
        var entry = entry
        entry.message = failure.userMessage
        entry.failure = failure.kind
        let message = failure.userMessage.text()
        entry.isNews = job.lastError != message
        let now = Date()
        // A file gone from the archive says nothing about the destination.
        if failure.kind != .missingFile {
            failures.withLockedValue { $0[job.destination] = LatestFailure(failure: failure, at: now) }
        }
        let (retryAt, counted, outcome): (Date?, Bool, UploadReport.Outcome)
        if failure.waitsForLogin {
            (retryAt, counted, outcome) = (now.addingTimeInterval(policy.loginRetryDelay), false, .waitingForLogin)
        } else if failure.isRetried, let delay = policy.delay(afterAttempt: job.attempts + 1) {
            (retryAt, counted, outcome) = (now.addingTimeInterval(delay), true, .retrying)
        } else {
            (retryAt, counted, outcome) = (nil, true, .failed)
        }
        entry.outcome = outcome
        let library = library
        do {
            entry.job = try await Blocking.run {
                try library.recordUploadFailure(job.id, message: message, counted: counted, retryAt: retryAt)
            }
        } catch {
            // The job stays `uploading` and is taken up again later (see the type's notes).
            entry.message = UserMessage(error: error)
        }
        return entry
    }

    /// Opens a destination once per pass.
    private func open(_ setting: String, in destinations: inout [String: any UploadDestination]) throws -> any UploadDestination {
        if let destination = destinations[setting] { return destination }
        let destination = try Destination.parse(setting).open(library: library.location, environment: environment)
        destinations[setting] = destination
        return destination
    }
}
