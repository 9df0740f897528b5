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
/// A destination whose writes reach its disk later (a folder) gets a note before a pass writes
/// there, and copies a restart of the machine may have lost are sent again (``UnsettledCopies``).
///
/// The database is read and written through the library's async door (``store``: its readers
/// and its one writer); files are copied and child programs run on ``FileWork``'s threads. Never
/// on the cooperative pool.
public final class UploadWorker: Sendable {
    /// The library's async door, shared with everything else the household runs.
    public let store: AsyncLibrary
    public var library: Library { store.library }
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

    public init(store: AsyncLibrary, notify: String? = nil, policy: UploadPolicy = UploadPolicy(),
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.store = store
        self.notifyCommand = notify
        self.policy = policy
        self.environment = environment
    }

    /// What went wrong the last time this worker tried `destination` (a setting value), nil when
    /// it has not failed there since it was made, or a job has been done there since.
    public func latestFailure(at destination: String) -> LatestFailure? {
        failures.withLockedValue { $0[destination] }
    }

    /// A job was done at `destination`: its latest failure is forgotten, and the household is
    /// told again should the copies there fail anew.
    func clearFailure(at destination: String) {
        failures.withLockedValue { $0[destination] = nil }
        _ = told.withLockedValue { $0.remove(destination) }
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
        let (store, library, policy) = (store, library, policy)
        var destinations: [String: any UploadDestination] = [:]
        var blocked: [String: UploadFailure] = [:]
        // Jobs this pass took and has not recorded yet, touched every few seconds (see
        // ``UploadPolicy/staleAfter``) by a task that is stopped, never waited for, at the end.
        let held = NIOLockedValueBox<Set<Int>>([])
        let toucher = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: 5_000_000_000)
                let ids = held.withLockedValue { Array($0) }
                if Task.isCancelled { return }
                if !ids.isEmpty { try? await store.write { try $0.uploads.touchUploads(ids) } }
            }
        }
        defer { toucher.cancel() }
        // Batches go through three stages side by side: while one is copied, the next is taken
        // and planned, and the one before is recorded (child tasks: they run where
        // the pass runs, such as the uploads' own executor).
        var previous: PerformedBatch?
        // The note of copies not yet surely on the disk: made before the first write, and its
        // time of the last write brought up to date every few seconds and after the last.
        let unsettled = UnsettledCopies(library: library.location.directory)
        var setting = "", noted: Date?
        do {
            if case .held = lock { _ = try await store.write { try $0.uploads.requeueInterruptedUploads() } }
            await removeOrphans(destinations: &destinations, report: &report)
            setting = try await store.read { try $0.setting(.destination) } ?? ""
            try await resendLostCopies(at: setting, unsettled, report: &report)
            let due = try await store.read { try $0.uploads.dueUploads(includeWaiting: includeWaiting, staleAfter: policy.staleAfter) }
            if !due.isEmpty, !setting.isEmpty, let destination = try? open(setting, in: &destinations), destination.writesReachDiskLater {
                let written = setting
                try await FileWork.run { try unsettled.willWrite(to: written) }
                noted = Date()
            }
            var next = 0, taken = 0
            func nextIDs() -> [Int] {
                guard next < due.count, !Task.isCancelled, taken < maxJobs else { return [] }
                let ids = Array(due[next...].prefix(min(Self.batchSize, maxJobs - taken)))
                next += ids.count
                return ids
            }
            var current = try await TakenBatch.take(nextIDs(), store: store, policy: policy, includeWaiting: includeWaiting, held: held)
            while let batch = current {
                taken += batch.jobs.count
                let (ids, done) = (nextIDs(), previous)
                async let upcoming = TakenBatch.take(ids, store: store, policy: policy, includeWaiting: includeWaiting, held: held)
                async let recorded = record(done, held: held)
                previous = await perform(batch, destinations: &destinations, blocked: &blocked)
                report.entries += await recorded
                current = try await upcoming
                if let last = noted, Date().timeIntervalSince(last) >= UnsettledCopies.refreshEvery {
                    let written = setting
                    try await FileWork.run { try unsettled.willWrite(to: written) }
                    noted = Date()
                }
            }
        } catch {
            report.problems.append(UserMessage(error: error))
        }
        report.entries += await record(previous, held: held)
        if noted != nil {
            let written = setting
            try? await FileWork.run { try unsettled.willWrite(to: written) }
        }
        for destination in destinations.values { await destination.close() }
        report.problems += await notify(report)
        return report
    }

    /// Sends again the copies at `setting` that a restart of the machine may have lost before
    /// they reached the disk (see ``UnsettledCopies``), and forgets the notes of copies that
    /// have reached it.
    private func resendLostCopies(at setting: String, _ unsettled: UnsettledCopies, report: inout UploadReport) async throws {
        guard !setting.isEmpty, let since = unsettled.lost(at: setting) else {
            try await FileWork.run { try unsettled.settle(current: setting) }
            return
        }
        // A little before the note, for clocks that disagree by a second.
        let copies = try await store.read { try $0.uploads.copiesRecorded(at: setting, since: since.addingTimeInterval(-2)) }
        try await store.write { try $0.uploads.queueCopies(of: copies.letters, forgetting: copies.paths) }
        try await FileWork.run { try unsettled.settle(resent: setting, current: setting) }
        report.resentAfterRestart += copies.letters.count
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
            let staleAfter = policy.staleAfter
            guard let status = try? await store.read({ try $0.uploads.uploadQueueStatus(staleAfter: staleAfter) }),
                  status.pending > 0, let next = status.nextDue else { break }
            let wait = min(max(next.timeIntervalSinceNow, passes.busy ? 1 : 0.05), deadline.timeIntervalSinceNow)
            guard wait > 0 else { break }
            try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
        }
        return report
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

    static func entry(_ job: UploadJob, outcome: UploadReport.Outcome = .done) -> UploadReport.Entry {
        UploadReport.Entry(job: job, outcome: outcome, uploaded: 0, unchanged: 0, message: nil, failure: nil)
    }

    static func failure(_ error: any Error) -> UploadFailure {
        error as? UploadFailure
            ?? UploadFailure(.transient, nb: UserMessage(error: error).norwegian, en: UserMessage(error: error).english)
    }

    /// Removes the copies of letters that were purged (emptied from the trash) at the
    /// destination set now; returns how many went.
    private func removeOrphans(destinations: inout [String: any UploadDestination], report: inout UploadReport) async {
        guard let setting = try? await store.read({ try $0.setting(.destination) }), !setting.isEmpty,
              let orphans = try? await store.read({ try $0.uploads.orphanRemoteFiles(at: setting) }), !orphans.isEmpty else { return }
        do {
            let destination = try open(setting, in: &destinations)
            for orphan in orphans {
                if Task.isCancelled { return }
                try await destination.remove(orphan.path)
                try await store.write { try $0.uploads.forgetRemoteFile(orphan.path, at: setting) }
                report.removedOrphans += 1
            }
        } catch {
            report.problems.append(UserMessage(error: error))
        }
    }

    func record(_ failure: UploadFailure, for job: UploadJob, entry: UploadReport.Entry) async -> UploadReport.Entry {
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
        do {
            entry.job = try await store.write {
                try $0.uploads.recordUploadFailure(job.id, message: message, counted: counted, retryAt: retryAt)
            }
        } catch {
            // The job stays `uploading` and is taken up again later (see the type's notes).
            entry.message = UserMessage(error: error)
        }
        return entry
    }

    /// Opens a destination once per pass.
    func open(_ setting: String, in destinations: inout [String: any UploadDestination]) throws -> any UploadDestination {
        if let destination = destinations[setting] { return destination }
        let destination = try Destination.parse(setting).open(library: library.location, environment: environment)
        destinations[setting] = destination
        return destination
    }
}
