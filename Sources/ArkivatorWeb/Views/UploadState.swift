import ArkivatorCore
import ArkivatorLibrary
import ArkivatorSync
import Foundation

/// The upload queue as the library page and Settings show it: what waits, and why, in the words
/// of ``UploadWait`` (what is wrong and what to do next, never a command).
struct UploadState: Sendable {
    let state: UploadQueueState

    /// The jobs not done yet, newest first (at most 100).
    var open: [UploadJob] { Array(state.jobs.filter { !$0.trashed }.suffix(100).reversed()) }

    init(_ state: UploadQueueState) {
        self.state = state
    }

    /// The jobs not done yet, read directly (the API's queue).
    static func read(_ library: Library) throws -> [UploadJob] {
        try library.uploadJobs(states: [.queued, .uploading, .error]).filter { !$0.trashed }
    }

    struct Banner {
        let reason: String
    }

    /// The notice the library page shows when uploads are held up.
    func banner(_ words: Words) -> Banner? {
        guard let wait = state.waiting.first else { return nil }
        return Banner(reason: wait.message.text(in: words.language))
    }

    /// The queue part of the settings page; `folders` (the library's, the archive's) are left out
    /// of each job's last error, as in the API.
    func model(_ words: Words, hiding folders: [String]) -> [String: Any] {
        let states: [UploadJob.State: String] = [.queued: words["jobWaiting"], .uploading: words["uploadRunning"],
                                                 .done: words["uploadDone"], .error: words["uploadFailed"]]
        let jobs: [[String: Any]] = open.map { job in
            var row: [String: Any] = ["id": job.id, "title": job.title, "state": states[job.state] ?? job.state.rawValue,
                                      "canRetry": job.state == .error || (job.state == .queued && job.lastError != nil)]
            if let error = job.lastError { row["detail"] = ServerPaths.hidden(in: error, folders: folders) }
            return row
        }
        var model: [String: Any] = ["jobs": jobs, "empty": jobs.isEmpty, "anyRetry": jobs.count > 1]
        if !state.waiting.isEmpty {
            model["stateText"] = state.waiting.map { $0.message.text(in: words.language) }.joined(separator: " ")
            model["stateClass"] = "problem"
        } else if state.destination == nil {
            model["stateText"] = words["uploadOff"]
            model["stateClass"] = "meta"
        } else if state.pending > 0 {
            model["stateText"] = words.language.count(state.pending, ("dokument venter", "document waits"),
                                                      ("dokumenter venter", "documents wait"))
            model["stateClass"] = "meta"
        } else {
            model["stateText"] = words["uploadAllDone"]
            model["stateClass"] = "meta"
        }
        return model
    }
}
