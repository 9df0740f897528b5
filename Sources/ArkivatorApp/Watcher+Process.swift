import ArkivatorArchive
import ArkivatorCore
import ArkivatorIntake
import ArkivatorLibrary
import ArkivatorPipeline
import Foundation
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Watcher {
    // MARK: - One document

    /// Journals, reads, files and puts away one document. Throws only when the OCR engines
    /// cannot be made (nothing can be read then).
    func process(_ found: Found) throws {
        let name = found.displayName(relativeTo: root)
        // 1. Its identity: the SHA-256 of its files (of the raw bytes when they are no image).
        var inputError: InputError?
        let sha: String
        var files: [ReceivedFile] = []
        do {
            for page in found.document.pages {
                do {
                    files.append(try ReceivedFile.read(page))
                } catch {
                    inputError = error
                    break
                }
            }
            if let inputError {
                guard FileManager.default.fileExists(atPath: found.originals[0]) else { return }  // gone: forget it
                guard let hashes = try? found.document.pages.map({ try FileDigest.sha256(of: $0) }) else {
                    let reason = inputError.userMessage
                    passingProblem(found, UserMessage(nb: "\(name): \(reason.norwegian) Prøver igjen senere.",
                                                      en: "\(name): \(reason.english) Trying again later."))
                    return
                }
                sha = FileDigest.documentID(ofHashes: hashes)
            } else {
                sha = ReceivedFile.documentID(of: files)
            }
        }
        // 2. The journal row, before any work; and what the library already holds.
        let entry: JournalEntry
        let held: (id: String, title: String, trashed: Bool)?
        let before: JournalEntry?
        do {
            before = try library.journal.entry(sha256: sha)
            held = try library.documents.existing(sha256: sha)
            if held == nil, let before, before.isWaitingForRetry, let at = before.nextAttemptAt, at > clock() {
                schedule.hold(found.key, stamps: found.stamps, until: at)
                return
            }
            if held != nil, before?.stage == .done, options.onSuccess == .keep {
                schedule.park(found.key, stamps: found.stamps)  // filed earlier and kept on purpose: nothing to say
                return
            }
            let restart = before.map { $0.stage.isFinal || $0.hasFailedForGood } ?? false
            entry = try library.journal.receive(sha256: sha, source: found.journalSource, restart: restart)
        } catch {
            passingProblem(found, DocumentFailure(error, in: .library).userMessage)
            return
        }
        if let held {
            if let before, !before.stage.isFinal, before.stage != .failed {
                // An earlier run filed it and stopped before it could finish: finish now.
                finishFiled(sha: sha, originals: found.originals, isFolder: found.shape == .folder, key: found.key,
                            stamps: found.stamps) { moved in
                    .finishedEarlier(source: name, title: held.title, id: held.id, movedTo: moved)
                }
            } else {
                let message = held.trashed ? LibraryFailure.inTrash(held.title, id: held.id).userMessage
                                           : LibraryFailure.duplicate(held.title, id: held.id).userMessage
                putAway(found, sha: sha, stage: .duplicate) { moved in
                    .duplicate(source: name, message: message, movedTo: moved)
                }
            }
            return
        }
        if let inputError {
            fail(found, sha: sha, previousAttempts: entry.attempts, failure: DocumentFailure(inputError, in: .intake))
            return
        }
        // Stopping: leave it untouched (it is journalled; the next start takes it).
        if isStopping { return }
        // 3. Read, classify and file it, exactly as `ingest` does.
        let pipeline = try loadPipeline()
        let box = NIOLockedValueBox<DocumentRecord?>(nil)
        let library = self.library
        // The journal follows the document through the stages (a restart reads it again whatever
        // stage it reached before being recorded: filing is one transaction).
        // The files as read above: not read, hashed or looked up in the library again.
        pipeline.run(ReceivedDocument(source: found.document, files: files), stage: { _, stage in
            let reached: JournalEntry.Stage = switch stage {
            case .recognised: .recognised
            case .classified: .classified
            case .written: .written
            }
            try? library.journal.advance(sha256: sha, to: reached)
        }, record: { record in box.withLockedValue { $0 = record } })
        guard let record = box.withLockedValue({ $0 }) else {
            passingProblem(found, UserMessage(nb: "\(name): ble ikke lest. Prøver igjen senere.",
                                              en: "\(name): was not read. Trying again later."))
            return
        }
        var id = sha
        if let read = record.id, read != sha {
            // The files changed after they were hashed: the journal follows what was read.
            try? library.journal.remove(sha256: sha)
            _ = try? library.journal.receive(sha256: read, source: found.journalSource)
            id = read
        }
        switch record.libraryStatus {
        case .added:
            do {
                try library.journal.advance(sha256: id, to: .indexed)
            } catch {
                report(.problem(DocumentFailure(error, in: .library).userMessage))
            }
            var shown = record
            shown.sources = [name]
            finishFiled(sha: id, originals: found.originals, isFolder: found.shape == .folder, key: found.key,
                        stamps: found.stamps) { moved in
                .filed(shown, source: name, movedTo: moved)
            }
        case .duplicate, .inTrash:
            putAway(found, sha: id, stage: .duplicate) { moved in
                .duplicate(source: name, message: record.libraryMessage ?? UserMessage(nb: "", en: ""), movedTo: moved)
            }
        case nil:
            let failure = record.failure ?? DocumentFailure(
                stage: .recognition, code: "unknown",
                message: UserMessage(nb: "Dokumentet ble ikke arkivert (ukjent årsak).", en: "The document was not filed (unknown cause)."))
            fail(found, sha: id, previousAttempts: entry.attempts, failure: failure)
        }
    }

    // MARK: - Failures

    /// A document that could not be filed: tried again later when the problem is the machine's
    /// and tries are left, else moved to `failed/` with a note beside it.
    private func fail(_ found: Found, sha: String, previousAttempts: Int, failure: DocumentFailure) {
        let name = found.displayName(relativeTo: root)
        if failure.isPassing, previousAttempts < options.retryDelays.count {
            let at = clock().addingTimeInterval(options.retryDelays[previousAttempts])
            do {
                try library.journal.fail(sha256: sha, failure: failure, retryAt: at)
            } catch {
                report(.problem(DocumentFailure(error, in: .library).userMessage))
            }
            schedule.hold(found.key, stamps: found.stamps, until: at)
            report(.failed(source: name, failure: failure, retryAt: at, movedTo: [], note: nil))
            return
        }
        var attempts = previousAttempts + 1
        do {
            attempts = try library.journal.fail(sha256: sha, failure: failure, retryAt: nil)
        } catch {
            report(.problem(DocumentFailure(error, in: .library).userMessage))
        }
        do {
            let moved = try putAwayOriginals(found.originals, isFolder: found.shape == .folder, into: "failed")
            var note: String?
            if let first = moved.first {
                let noteURL = Self.noteURL(for: root + "/" + first, pages: moved.count, name: found.document.name)
                try AtomicFile.write(Array(FailureNote(source: name, failure: failure, attempts: attempts,
                                                       watched: root, movedTo: first).text.utf8),
                                     to: noteURL, overwrite: true)
                note = Self.relative(noteURL.path, to: root)
            }
            report(.failed(source: name, failure: failure, retryAt: nil, movedTo: moved, note: note))
        } catch {
            schedule.park(found.key, stamps: found.stamps)
            report(.failed(source: name, failure: failure, retryAt: nil, movedTo: [], note: nil))
            let why = UserMessage(error: error)
            report(.problem(UserMessage(
                nb: "Kunne ikke flytte \(name) til failed/: \(why.norwegian)",
                en: "Could not move \(name) to failed/: \(why.english)")))
        }
    }

    /// `NAME.feil.txt` beside the moved original: `brev.jpg.feil.txt`, `Brev.feil.txt` for a
    /// folder, `brev.feil.txt` for the pages `brev_p1.jpg` … (with their ` (2)` if they got one).
    static func noteURL(for moved: String, pages: Int, name: String) -> URL {
        let url = URL(fileURLWithPath: moved)
        if pages > 1 {
            let stem = url.deletingPathExtension().lastPathComponent
            let suffix = stem.range(of: " (", options: .backwards).map { String(stem[$0.lowerBound...]) } ?? ""
            let base = suffix.hasSuffix(")") ? name + suffix : name
            return url.deletingLastPathComponent().appendingPathComponent(base + ".feil.txt")
        }
        return url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".feil.txt")
    }

    /// A problem outside the document (the library could not be written): tried again later,
    /// 1 s, 2 s, 4 s … up to the first retry delay; the document is not marked failed.
    private func passingProblem(_ found: Found, _ message: UserMessage) {
        schedule.backOff(found.key, stamps: found.stamps, now: clock(), longest: options.retryDelays.first ?? 60)
        report(.problem(message))
    }

    // MARK: - Starting again

    /// Finishes what an earlier run left: a document the library holds is put away and done
    /// (before the folder is looked at, so the rest of a half-moved group is never read as a new
    /// document); one whose source is gone is failed; the rest are read again by the loop.
    func resume() {
        let entries: [JournalEntry]
        do {
            entries = try library.journal.unfinished()
        } catch {
            report(.problem(DocumentFailure(error, in: .library).userMessage))
            return
        }
        var again = 0
        for entry in entries {
            let present = entry.sourcePaths.filter { access($0, F_OK) == 0 }
            let name = entry.sourcePaths.first.map { ShownName.of(Self.relative($0, to: root)) } ?? entry.sha256
            do {
                if let held = try library.documents.existing(sha256: entry.sha256) {
                    if entry.stage == .failed {
                        if present.isEmpty { try library.journal.advance(sha256: entry.sha256, to: .duplicate) }
                        continue  // still in the folder: the loop reports it as a duplicate
                    }
                    var isDirectory: ObjCBool = false
                    let isFolder = present.count == 1 && FileManager.default.fileExists(atPath: present[0], isDirectory: &isDirectory)
                        && isDirectory.boolValue
                    if present.isEmpty {
                        try library.journal.advance(sha256: entry.sha256, to: .done)
                    } else {
                        finishFiled(sha: entry.sha256, originals: present, isFolder: isFolder, key: present[0],
                                    stamps: present.compactMap(Stamp.of)) { moved in
                            .finishedEarlier(source: name, title: held.title, id: held.id, movedTo: moved)
                        }
                    }
                } else if present.isEmpty {
                    let reason = UserMessage(nb: "Filen forsvant fra mappen før den ble arkivert.",
                                             en: "The file left the folder before it was filed.")
                    try library.journal.fail(sha256: entry.sha256, failure: DocumentFailure(stage: .intake, code: "vanished", message: reason),
                                             retryAt: nil)
                } else {
                    again += 1
                }
            } catch {
                report(.problem(DocumentFailure(error, in: .library).userMessage))
            }
        }
        if again > 0 { report(.resuming(count: again)) }
    }
}
