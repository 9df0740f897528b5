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
/// (`uploading`), its letter's copy brought in line with the archive (see ``copy(_:to:entry:progress:)``),
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
    private let told = NIOLockedValueBox<Set<String>>([])

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

    /// Brings the letters of a batch of jobs in line at their destinations (see
    /// ``copy(_:destination:)``); what they did is recorded in one transaction at the end, a
    /// failed job's own failure at once. Stopped (cancelled) partway, the jobs not done are put
    /// back in the queue as they were.
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
        var entries: [UploadReport.Entry] = []
        var progress: [MirrorProgress] = []
        var lastTouch = Date()
        for (index, plan) in plans.enumerated() {
            if Task.isCancelled {
                let left = plans[index...].map(\.job.id)
                try? await Blocking.run { try library.releaseUploads(left) }
                entries += plans[index...].map { Self.entry($0.job, outcome: .retrying) }
                break
            }
            if Date().timeIntervalSince(lastTouch) > 5 {
                lastTouch = Date()
                let left = plans[index...].map(\.job.id)
                try? await Blocking.run { try library.touchUploads(left) }
            }
            var entry = Self.entry(plan.job)
            var step = MirrorProgress(destination: plan.job.destination)
            do {
                if let failure = blocked[plan.job.destination] { throw failure }
                let destination = try open(plan.job.destination, in: &destinations)
                try await copy(plan, to: destination, entry: &entry, progress: &step)
                step.completing = (plan.job.id, plan.job.generation)
                progress.append(step)
                entries.append(entry)
            } catch is CancellationError {
                progress.append(step)
                try? await Blocking.run { try library.releaseUploads([plan.job.id]) }
                entry.outcome = .retrying
                entries.append(entry)
            } catch {
                let failure = Self.failure(error)
                if failure.blocksDestination { blocked[plan.job.destination] = failure }
                progress.append(step)
                entries.append(await record(failure, for: plan.job, entry: entry))
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

    /// Brings one letter at its destination in line with the archive: each file the destination
    /// should hold is left when the library recorded it there with the same content, moved when
    /// the destination holds that content at a place no longer wanted (a corrected name, the
    /// trash), else sent; then the letter's recorded files no longer wanted are removed. What was
    /// done goes into `progress` (recorded by the caller), and each step is safe to repeat: after
    /// a crash the job is done again from the top, a move whose source is gone falls back to a
    /// copy (which leaves a file with the same bytes alone), and a removal of a file already gone
    /// is fine. Nothing the library did not record is ever moved or removed.
    private func copy(_ plan: MirrorPlan, to destination: any UploadDestination,
                      entry: inout UploadReport.Entry, progress: inout MirrorProgress) async throws {
        let job = plan.job
        if let missing = plan.wanted.first(where: { $0.size < 0 }) { throw UploadFailure.missingFile(missing.file.path) }
        let wantedPaths = Set(plan.wanted.map(\.path))
        var atPlace: [String: RemoteFileRecord] = [:]
        for record in plan.recorded { atPlace[record.path] = record }
        var spare = plan.recorded.filter { !wantedPaths.contains($0.path) }
        var steps: [MirrorStep] = []
        var records: [RemoteFileRecord?] = []
        for file in plan.wanted {
            let record = RemoteFileRecord(path: file.path, documentNumber: job.documentNumber, sha256: file.sha256, size: file.size)
            if let known = atPlace[file.path], known.sha256 == file.sha256 {
                entry.unchanged += 1
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
        guard !steps.isEmpty else { return }
        let (done, stopped) = await destination.perform(steps)
        for (index, result) in done.enumerated() {
            switch steps[index] {
            case .move(let from, _):
                progress.removed.append(from)
            case .remove(let path):
                progress.removed.append(path)
            case .upload:
                break
            }
            if let record = records[index] { progress.placed.append(record) }
            switch result {
            case .moved: entry.moved += 1
            case .uploaded(.uploaded): entry.uploaded += 1
            case .uploaded(.unchanged): entry.unchanged += 1
            case .removed: entry.removed += 1
            }
        }
        if let stopped { throw stopped }
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

    // MARK: - Notifying

    /// Runs the notify command for the jobs that gave up (one message per destination) and
    /// for a refused login (the first time a job meets it); returns what went wrong running it.
    private func notify(_ report: UploadReport) async -> [UserMessage] {
        var messages: [String] = []
        var byDestination: [String: [UploadReport.Entry]] = [:]
        for entry in report.entries where entry.outcome == .failed { byDestination[entry.job.destination, default: []].append(entry) }
        for (setting, entries) in byDestination.sorted(by: { $0.key < $1.key }) {
            let name = (try? Destination.parse(setting).displayName) ?? setting
            let reason = entries[0].message?.text() ?? ""
            if entries.count == 1 {
                let job = entries[0].job
                messages.append(UserMessage(
                    nb: "Arkivator: «\(job.title)» ble ikke lastet opp til \(name) etter \(job.attempts) forsøk. \(reason) Prøv igjen med: arkivator queue retry \(job.id)",
                    en: "Arkivator: “\(job.title)” was not uploaded to \(name) after \(job.attempts) tries. \(reason) Try again with: arkivator queue retry \(job.id)").text())
            } else {
                messages.append(UserMessage(
                    nb: "Arkivator: \(entries.count) dokumenter ble ikke lastet opp til \(name). \(reason) Prøv igjen med: arkivator queue retry --all",
                    en: "Arkivator: \(entries.count) documents were not uploaded to \(name). \(reason) Try again with: arkivator queue retry --all").text())
            }
        }
        let now = Date()
        for entry in report.entries where entry.outcome == .retrying || entry.outcome == .waitingForLogin {
            let job = entry.job
            guard let since = job.failingSinceDate, now.timeIntervalSince(since) >= policy.tellAfter,
                  told.withLockedValue({ $0.insert(job.destination).inserted }) else { continue }
            let name = (try? Destination.parse(job.destination).displayName) ?? job.destination
            let hours = max(1, Int(now.timeIntervalSince(since) / 3600))
            let reason = entry.message?.text() ?? ""
            messages.append(UserMessage(
                nb: "Arkivator: kopiene til \(name) har ikke kommet fram på \(hours == 1 ? "over en time" : "over \(hours) timer"). \(reason) Arkivator fortsetter å prøve av seg selv.",
                en: "Arkivator: copies to \(name) have not got through for \(hours == 1 ? "over an hour" : "over \(hours) hours"). \(reason) Arkivator keeps trying by itself.").text())
        }
        var loginNoted: Set<String> = []
        for entry in report.entries where entry.outcome == .waitingForLogin {
            // Only news: the job did not already carry this message before the pass.
            guard entry.isNews, let message = entry.message?.text(), !loginNoted.contains(entry.job.destination) else { continue }
            loginNoted.insert(entry.job.destination)
            messages.append("Arkivator: " + message)
        }
        guard !messages.isEmpty else { return [] }
        let library = library
        let command: String?
        if let notifyCommand { command = notifyCommand } else { command = try? await Blocking.run { try library.setting(.notify) } }
        guard let command, !command.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        var problems: [UserMessage] = []
        for message in messages {
            if let problem = await Notifier.run(command, message: message, environment: environment, timeout: policy.notifyTimeout) {
                problems.append(problem)
            }
        }
        return problems
    }
}

/// Runs the notify command: `/bin/sh -c 'COMMAND "$1"' arkivator-notify MESSAGE`, so the
/// command may hold its own arguments and the message arrives as one more, never as shell text.
public enum Notifier {
    /// Runs it and waits (at most `timeout` seconds); returns what went wrong, nil when it ran and exited 0.
    public static func run(_ command: String, message: String, environment: [String: String],
                           timeout: TimeInterval = 30) async -> UserMessage? {
        do {
            let result = try await Blocking.run {
                try ChildProcess.run("/bin/sh", ["-c", command + " \"$1\"", "arkivator-notify", message],
                                     environment: environment, timeout: timeout)
            }
            guard result.status == 0, !result.timedOut else {
                let detail = result.timedOut ? "more than \(Int(timeout)) s" : "exit \(result.status)"
                return UserMessage(nb: "Varslingskommandoen «\(command)» feilet (\(detail)).",
                                   en: "The notify command “\(command)” failed (\(detail)).")
            }
            return nil
        } catch {
            let why = UserMessage(error: error)
            return UserMessage(nb: "Kunne ikke kjøre varslingskommandoen «\(command)»: \(why.norwegian)",
                               en: "Could not run the notify command “\(command)”: \(why.english)")
        }
    }
}

/// `<library>/uploads.lock`: an exclusive `flock` while a pass runs.
enum UploadLock {
    case held(Int32)
    /// Another process (or worker) is in a pass.
    case busy
    /// The lock file cannot be opened or locked (then stale `uploading` jobs go by age).
    case unavailable

    static func take(_ directory: URL) -> UploadLock {
        let descriptor = Posix.open(directory.appendingPathComponent("uploads.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return .unavailable }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return .held(descriptor) }
        let busy = errno == EWOULDBLOCK
        Posix.close(descriptor)
        return busy ? .busy : .unavailable
    }

    func release() {
        if case .held(let descriptor) = self {
            _ = flock(descriptor, LOCK_UN)
            Posix.close(descriptor)
        }
    }
}
