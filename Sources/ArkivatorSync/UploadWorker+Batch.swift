import ArkivatorCore
import ArkivatorLibrary
import Foundation
import NIOConcurrencyHelpers

/// A batch of jobs taken from the queue (`uploading`, in one transaction) with their letters'
/// plans, or why the plans could not be read.
struct TakenBatch: Sendable {
    var jobs: [UploadJob]
    var plans: Result<[MirrorPlan], any Error>

    /// Takes the jobs with these ids that are still due and reads their plans; the jobs taken
    /// join `held` until they are recorded. Nil when there are no ids.
    static func take(_ ids: [Int], store: AsyncLibrary, policy: UploadPolicy, includeWaiting: Bool,
                     held: NIOLockedValueBox<Set<Int>>) async throws -> TakenBatch? {
        guard !ids.isEmpty else { return nil }
        return try await store.write { try TakenBatch(ids, library: $0, policy: policy, includeWaiting: includeWaiting, held: held) }
    }

    private init(_ ids: [Int], library: Library, policy: UploadPolicy, includeWaiting: Bool, held: NIOLockedValueBox<Set<Int>>) throws {
        let jobs = try library.uploads.claimUploads(ids, includeWaiting: includeWaiting, staleAfter: policy.staleAfter)
        held.withLockedValue { $0.formUnion(jobs.map(\.id)) }
        self.jobs = jobs
        do {
            plans = .success(try library.uploads.mirrorPlans(of: jobs))
        } catch {
            plans = .failure(error)
        }
    }
}

/// What copying a batch did, to be recorded.
struct PerformedBatch: Sendable {
    var jobs: [UploadJob]
    var entries: [UploadReport.Entry]
    var progress: [MirrorProgress]
    /// The jobs that failed (by index), with why; a `CancellationError` puts the job back as it was.
    var failed: [(index: Int, error: any Error)]
}

extension UploadWorker {
    /// Jobs taken, read and recorded together: one transaction each way per batch, not per letter.
    static let batchSize = 64

    /// Brings the letters of a batch in line at their destinations: each letter's steps (see
    /// ``steps(for:)``) are handed to its destination together (a folder does them side by side).
    /// Nothing is recorded here (see ``record(_:held:)``); a failure that would hit every letter
    /// at a destination the same way keeps the rest of the pass away from it (`blocked`).
    func perform(_ batch: TakenBatch, destinations: inout [String: any UploadDestination],
                 blocked: inout [String: UploadFailure]) async -> PerformedBatch {
        let jobs = batch.jobs
        var performed = PerformedBatch(jobs: jobs, entries: jobs.map { Self.entry($0) },
                                       progress: jobs.map { MirrorProgress(destination: $0.destination) }, failed: [])
        let plans: [MirrorPlan]
        switch batch.plans {
        case .success(let read): plans = read
        case .failure(let error):
            performed.failed = jobs.indices.map { ($0, error) }
            return performed
        }
        // The letters with steps to take, by destination: (index, steps, the record of each step's file).
        var work: [String: [(index: Int, steps: [MirrorStep], records: [RemoteFileRecord?])]] = [:]
        for (index, plan) in plans.enumerated() {
            do {
                if let failure = blocked[plan.job.destination] { throw failure }
                _ = try open(plan.job.destination, in: &destinations)
                let (steps, records, unchanged) = try Self.steps(for: plan)
                performed.entries[index].unchanged = unchanged
                if steps.isEmpty {
                    performed.progress[index].completing = (plan.job.id, plan.job.generation)
                } else {
                    work[plan.job.destination, default: []].append((index, steps, records))
                }
            } catch {
                performed.failed.append((index, error))
            }
        }
        for (setting, letters) in work.sorted(by: { $0.key < $1.key }) {
            guard let destination = destinations[setting] else { continue }
            let outcomes = await destination.perform(letters: letters.map(\.steps))
            for (letter, outcome) in zip(letters, outcomes) {
                let index = letter.index
                for (step, result) in outcome.done.enumerated() {
                    switch letter.steps[step] {
                    case .move(let from, _): performed.progress[index].removed.append(from)
                    case .remove(let path): performed.progress[index].removed.append(path)
                    case .upload: break
                    }
                    if let record = letter.records[step] { performed.progress[index].placed.append(record) }
                    switch result {
                    case .moved: performed.entries[index].moved += 1
                    case .uploaded(.uploaded): performed.entries[index].uploaded += 1
                    case .uploaded(.unchanged): performed.entries[index].unchanged += 1
                    case .removed: performed.entries[index].removed += 1
                    }
                }
                if let stopped = outcome.stopped {
                    performed.failed.append((index, stopped))
                } else {
                    performed.progress[index].completing = (plans[index].job.id, plans[index].job.generation)
                }
            }
        }
        for (index, error) in performed.failed where !(error is CancellationError) {
            let failure = Self.failure(error)
            if failure.blocksDestination { blocked[jobs[index].destination] = failure }
        }
        return performed
    }

    /// Records what a batch did: each failed job's failure (a stopped one put back in the queue
    /// as it was), then the files placed and removed and the jobs done, in one transaction.
    /// Returns the batch's entries, with the jobs as they are now.
    func record(_ batch: PerformedBatch?, held: NIOLockedValueBox<Set<Int>>) async -> [UploadReport.Entry] {
        guard let batch else { return [] }
        defer { held.withLockedValue { $0.subtract(batch.jobs.map(\.id)) } }
        var entries = batch.entries
        for (index, error) in batch.failed.sorted(by: { $0.index < $1.index }) {
            let job = batch.jobs[index]
            if error is CancellationError {
                try? await store.write { try $0.uploads.releaseUploads([job.id]) }
                entries[index].outcome = .retrying
            } else {
                entries[index] = await record(Self.failure(error), for: job, entry: entries[index])
            }
        }
        let done = batch.progress
        do {
            try await store.write { try $0.uploads.recordMirror(done) }
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
            clearFailure(at: destination)
        }
        if let now = try? await store.read({ try $0.uploads.uploadJobs(completed) }) {
            var byID: [Int: UploadJob] = [:]
            for job in now { byID[job.id] = job }
            for index in entries.indices where entries[index].outcome == .done {
                entries[index].job = byID[entries[index].job.id] ?? entries[index].job
            }
        }
        return entries
    }
}
