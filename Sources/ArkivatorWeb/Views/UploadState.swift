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
        try library.uploads.uploadJobs(states: [.queued, .uploading, .error]).filter { !$0.trashed }
    }

    struct Banner {
        let reason: String
    }

    /// The notice the library page shows when uploads are held up.
    func banner(_ words: Words) -> Banner? {
        guard let wait = state.waiting.first else { return nil }
        return Banner(reason: ([wait.longNotice()?.text(in: words.language)].compactMap { $0 }
                               + [wait.message.text(in: words.language)]).joined(separator: " "))
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
            model["stateText"] = state.waiting.map { wait in
                ([wait.longNotice()?.text(in: words.language)].compactMap { $0 } + [wait.message.text(in: words.language)])
                    .joined(separator: " ")
            }.joined(separator: " ")
            model["stateClass"] = "problem"
        } else if state.destination == nil {
            model["stateText"] = words["uploadOff"]
            model["stateClass"] = "meta"
        }
        // With a destination set and nothing held up, the copy's progress (``copyProgress``) says
        // how far it has come: a bare «Alt er lastet opp» would hide letters never queued.
        return model
    }

    /// The copy's progress in words, from the letters' copy status (``CopyStatus``, letters in the
    /// trash left out): "12 av 51 brev er kopiert" with a bar while letters wait, "Alle 51 brev er
    /// kopiert." when done, and the failed ones counted (their reasons stand in the queue list).
    /// Nil when no destination is set.
    func copyProgress(_ counts: [CopyStatus: Int], _ words: Words) -> [String: Any]? {
        guard let name = state.destinationName else { return nil }
        let copied = counts[.copied] ?? 0, failed = counts[.failed] ?? 0
        // A letter with no status yet while a destination is set waits for its first copy; one
        // whose copy is out of date waits for its turn as well.
        let waiting = (counts[.waiting] ?? 0) + (counts[.none] ?? 0) + (counts[.stale] ?? 0)
        let total = copied + failed + waiting
        var model: [String: Any] = ["destination": name, "copied": copied, "total": total]
        if total == 0 {
            model["text"] = words.text("Ingen brev å kopiere ennå: hvert brev som arkiveres, kopieres til \(name).",
                                       "No letters to copy yet: each letter filed is copied to \(name).")
        } else if copied == total {
            model["text"] = words.text("Alle \(total) brev er kopiert til \(name).", "All \(total) letters are copied to \(name).")
            model["done"] = true
        } else {
            model["text"] = words.text("\(copied) av \(total) brev er kopiert til \(name).",
                                       "\(copied) of \(total) letters are copied to \(name).")
            model["bar"] = ["value": copied, "max": total,
                            "text": words.text("\(copied) av \(total)", "\(copied) of \(total)")] as [String: Any]
        }
        if waiting > 0 {
            model["waiting"] = words.text("\(waiting) venter på tur. Kopieringen går av seg selv i bakgrunnen.",
                                          "\(waiting) \(waiting == 1 ? "waits" : "wait") for \(waiting == 1 ? "its" : "their") turn. Copying goes on by itself in the background.")
        }
        if failed > 0 {
            model["failed"] = words.text(
                "\(failed) brev kunne ikke kopieres. Grunnen står ved hvert av dem i køen under.",
                "\(failed) \(failed == 1 ? "letter" : "letters") could not be copied. The reason stands by each in the queue below.")
        }
        return model
    }
}

/// «Sjekk kopien» in Settings: what the destination holds compared with the archive, in words
/// (``MirrorCheck/summary``) and counted by kind, with the files that differ.
struct MirrorCheckView {
    /// The most files listed by name (the counts cover them all).
    static let listed = 50

    let check: MirrorCheck

    /// `waiting`: letters whose copy is still on its way (what is missing for them comes by itself).
    func model(_ words: Words, waiting: Int) -> [String: Any] {
        let kinds: [(MirrorCheck.Difference.Kind, String)] = [
            (.missing, words.text("Mangler", "Missing")),
            (.stale, words.text("Utdatert", "Out of date")),
            (.extra, words.text("Skal ikke være der", "Should not be there")),
            (.unknown, words.text("Ikke Arkivators (blir aldri rørt)", "Not Arkivator's (never touched)")),
        ]
        let label = Dictionary(uniqueKeysWithValues: kinds)
        var model: [String: Any] = [
            "summary": check.summary.text(in: words.language),
            "inLine": check.isInLine,
            "counts": kinds.map { ["label": $0.1, "count": check.count($0.0)] as [String: Any] },
        ]
        let differing = check.differences.prefix(Self.listed).map { difference in
            ["path": difference.path, "kind": label[difference.kind] ?? difference.kind.rawValue] as [String: Any]
        }
        if !differing.isEmpty {
            model["files"] = differing
            model["filesTitle"] = check.differences.count > Self.listed
                ? words.text("De første \(Self.listed) av \(check.differences.count) filene", "The first \(Self.listed) of \(check.differences.count) files")
                : words.text("Filene", "The files")
        }
        if !check.isInLine {
            model["repairNote"] = words.text(
                "«Rett opp kopien» sender det som mangler eller er utdatert, på nytt, og fjerner filer Arkivator har lagt der som arkivet ikke har lenger.",
                "«Repair the copy» sends what is missing or out of date again, and removes files Arkivator put there that the archive no longer has.")
            if waiting > 0 {
                model["waitingNote"] = words.text(
                    "\(waiting) brev venter fortsatt på å bli kopiert; det som mangler for dem, kommer av seg selv.",
                    "\(waiting) \(waiting == 1 ? "letter still waits" : "letters still wait") to be copied; what is missing for them comes by itself.")
            }
        }
        return model
    }
}
