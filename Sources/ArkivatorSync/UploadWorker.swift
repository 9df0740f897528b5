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

/// Works through the upload queue: every due job is taken (`uploading`), every file of its
/// document copied to the job's destination, and the job marked `done` (the document
/// `uploaded`). A failed try is recorded by its kind (``UploadFailure/Kind``):
///
/// - passing errors and a full destination: tried again after 1, 2, 4, 8 and 16 s; the sixth
///   failed try in a row gives up (`error`, the document `failed`) and the notify command runs;
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
/// `uploading` for ``UploadPolicy/staleAfter`` seconds is due again (a live uploader touches its
/// job after every file).
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
            for id in due {
                if Task.isCancelled || report.entries.count >= maxJobs { break }
                guard let job = try await Blocking.run({
                    try library.claimUpload(id, includeWaiting: includeWaiting, staleAfter: policy.staleAfter)
                }) else { continue }
                report.entries.append(await upload(job, destinations: &destinations, blocked: &blocked))
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

    // MARK: - One job

    /// Brings the job's letter at its destination in line with the archive: each file the
    /// destination should hold is left when the library recorded it there with the same content,
    /// moved when the destination holds that content at a place no longer wanted (a corrected
    /// name, the trash), else sent; then the letter's recorded files no longer wanted are
    /// removed. Each step is recorded as soon as it is done, and each is safe to repeat: after a
    /// crash the job is done again from the top, a move whose source is gone falls back to a
    /// copy (which leaves a file with the same bytes alone), and a removal of a file already
    /// gone is fine. Nothing the library did not record is ever moved or removed.
    private func upload(_ job: UploadJob, destinations: inout [String: any UploadDestination],
                        blocked: inout [String: UploadFailure]) async -> UploadReport.Entry {
        let library = library
        var entry = UploadReport.Entry(job: job, outcome: .done, uploaded: 0, unchanged: 0, message: nil, failure: nil)
        // What this try did at the destination, recorded in one transaction at the end (or when it
        // fails): each step is safe to repeat, so a try cut off before the record is done again.
        var progress: (placed: [RemoteFileRecord], removed: [String]) = ([], [])
        func saveProgress() async {
            guard !progress.placed.isEmpty || !progress.removed.isEmpty else { return }
            let done = progress
            _ = try? await Blocking.run { try library.recordMirror(at: job.destination, placed: done.placed, removed: done.removed) }
        }
        do {
            if let failure = blocked[job.destination] { throw failure }
            let destination = try open(job.destination, in: &destinations)
            let (wanted, recorded) = try await Blocking.run {
                (try library.mirrorFiles(of: job), try library.remoteFiles(of: job.documentNumber, at: job.destination))
            }
            let wantedPaths = Set(wanted.map(\.path))
            var atPlace: [String: RemoteFileRecord] = [:]
            for record in recorded { atPlace[record.path] = record }
            var spare = recorded.filter { !wantedPaths.contains($0.path) }
            var lastTouch = Date()
            for file in wanted {
                try Task.checkCancellation()
                guard file.size >= 0 else { throw UploadFailure.missingFile(file.file.path) }
                let record = RemoteFileRecord(path: file.path, documentNumber: job.documentNumber, sha256: file.sha256, size: file.size)
                if let known = atPlace[file.path], known.sha256 == file.sha256 {
                    entry.unchanged += 1
                    continue
                }
                if let index = spare.firstIndex(where: { $0.sha256 == file.sha256 }) {
                    let old = spare.remove(at: index)
                    let moved = try await destination.move(from: old.path, to: file.path)
                    progress.removed.append(old.path)
                    if moved {
                        progress.placed.append(record)
                        entry.moved += 1
                        continue
                    }
                }
                switch try await destination.upload(file.file) {
                case .uploaded: entry.uploaded += 1
                case .unchanged: entry.unchanged += 1
                }
                progress.placed.append(record)
                if Date().timeIntervalSince(lastTouch) > 5 {
                    lastTouch = Date()
                    try? await Blocking.run { try library.touchUpload(job.id) }
                }
            }
            for old in spare {
                try Task.checkCancellation()
                try await destination.remove(old.path)
                progress.removed.append(old.path)
                entry.removed += 1
            }
            let done = progress
            try await Blocking.run {
                try library.recordMirror(at: job.destination, placed: done.placed, removed: done.removed,
                                         completing: (job.id, job.generation))
            }
            failures.withLockedValue { $0[job.destination] = nil }
            _ = told.withLockedValue { $0.remove(job.destination) }
            entry.job = (try? await Blocking.run { try library.uploadJob(job.id) }) ?? job
            return entry
        } catch is CancellationError {
            await saveProgress()
            try? await Blocking.run { try library.releaseUpload(job.id) }
            entry.outcome = .retrying
            return entry
        } catch {
            let failure = error as? UploadFailure
                ?? UploadFailure(.transient, nb: UserMessage(error: error).norwegian, en: UserMessage(error: error).english)
            if failure.blocksDestination { blocked[job.destination] = failure }
            await saveProgress()
            return await record(failure, for: job, entry: entry)
        }
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
