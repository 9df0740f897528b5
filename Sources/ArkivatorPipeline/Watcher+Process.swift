import ArkivatorArchive
import ArkivatorCore
import ArkivatorIntake
import ArkivatorLibrary
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Watcher {
    /// Codes of failures that come from the machine, not the document: tried again later.
    static let passingFailures: Set<String> = ["write", "unreadable", "library"]

    // MARK: - One document

    /// Journals, reads, files and puts away one document. Throws only when the OCR engines
    /// cannot be made (nothing can be read then).
    func process(_ found: Found) throws {
        let name = found.displayName(relativeTo: root)
        // 1. Its identity: the SHA-256 of its files (of the raw bytes when they are no image).
        var inputError: InputError?
        let sha: String
        do {
            var files: [ReceivedFile] = []
            for page in found.document.pages {
                do {
                    files.append(try ReceivedFile.read(page))
                } catch {
                    inputError = error
                    break
                }
            }
            if inputError == nil {
                sha = ReceivedFile.documentID(of: files)
            } else {
                guard FileManager.default.fileExists(atPath: found.originals[0]) else { return }  // gone: forget it
                guard let hashes = try? found.document.pages.map({ try FileDigest.sha256(of: $0) }) else {
                    passingProblem(found, UserMessage(
                        nb: "\(name): kunne ikke leses (\(inputError?.message.norwegian ?? "")). Prøver igjen senere.",
                        en: "\(name): could not be read (\(inputError?.message.english ?? "")). Trying again later."))
                    return
                }
                sha = FileDigest.documentID(ofHashes: hashes)
            }
        }
        // 2. The journal row, before any work; and what the library already holds.
        let entry: JournalEntry
        let held: (id: String, title: String, trashed: Bool)?
        let before: JournalEntry?
        do {
            before = try library.journal.entry(sha256: sha)
            held = try library.existing(sha256: sha)
            if held == nil, let before, before.isWaitingForRetry, let at = before.nextAttemptAt, at > Date() {
                waiting[found.key] = Waiting(stamps: found.stamps, until: at)
                return
            }
            if held != nil, before?.stage == .done, options.onSuccess == .keep {
                parked[found.key] = found.stamps  // filed earlier and kept on purpose: nothing to say
                return
            }
            let restart = before.map { $0.stage.isFinal || $0.hasFailedForGood } ?? false
            entry = try library.journal.receive(sha256: sha, source: found.journalSource, restart: restart)
        } catch {
            passingProblem(found, Self.libraryProblem(error))
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
                    .duplicate(source: name, message: message.text(), movedTo: moved)
                }
            }
            return
        }
        if let inputError {
            fail(found, sha: sha, previousAttempts: entry.attempts, code: inputError.code, reason: inputError.message)
            return
        }
        // Stopping: leave it untouched (it is journalled; the next start takes it).
        if isStopping { return }
        // 3. Read, classify and file it, exactly as `ingest` does.
        let pipeline = try loadPipeline()
        let box = RecordBox()
        let library = self.library
        // The journal follows the document through the stages (a restart reads it again whatever
        // stage it reached before being recorded: filing is one transaction).
        pipeline.run([found.document], stage: { _, stage in
            let reached: JournalEntry.Stage = switch stage {
            case .recognised: .recognised
            case .classified: .classified
            case .written: .written
            }
            try? library.journal.advance(sha256: sha, to: reached)
        }, record: { box.set($0) })
        guard let record = box.get() else {
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
                report(.problem(Self.libraryProblem(error)))
            }
            var shown = record
            shown.sources = [name]
            finishFiled(sha: id, originals: found.originals, isFolder: found.shape == .folder, key: found.key,
                        stamps: found.stamps) { moved in
                .filed(shown, source: name, movedTo: moved)
            }
        case .duplicate, .inTrash:
            putAway(found, sha: id, stage: .duplicate) { moved in
                .duplicate(source: name, message: record.libraryMessage ?? "", movedTo: moved)
            }
        case nil:
            let code = record.errorCode ?? "unknown"
            let reason = Self.reason(code: code, text: record.error)
            fail(found, sha: id, previousAttempts: entry.attempts, code: code, reason: reason)
        }
    }

    // MARK: - Originals

    /// After filing: the original goes as ``Options/onSuccess`` says, then the entry is `done`.
    /// When the original cannot be moved the document stays `indexed` (it is filed; the next
    /// start moves it) and is left alone until it changes.
    func finishFiled(sha: String, originals: [String], isFolder: Bool, key: String, stamps: [Stamp],
                     event: ([String]) -> Event) {
        do {
            let moved = try putAwayOriginals(originals, isFolder: isFolder, into: "processed")
            if options.onSuccess == .keep { parked[key] = stamps }
            try library.journal.advance(sha256: sha, to: .done)
            report(event(moved))
        } catch {
            parked[key] = stamps
            report(event([]))
            report(.problem(UserMessage(
                nb: "Dokumentet er arkivert, men originalen kunne ikke flyttes: \(Self.describe(error)). Den flyttes neste gang arkivator watch starter.",
                en: "The document is filed, but the original could not be moved: \(Self.describe(error)). It is moved the next time arkivator watch starts.")))
        }
    }

    /// A duplicate: journalled as such, then the original goes as for a filed document.
    private func putAway(_ found: Found, sha: String, stage: JournalEntry.Stage, event: ([String]) -> Event) {
        do {
            try library.journal.advance(sha256: sha, to: stage)
            let moved = try putAwayOriginals(found.originals, isFolder: found.shape == .folder, into: "processed")
            if options.onSuccess == .keep { parked[found.key] = found.stamps }
            report(event(moved))
        } catch {
            parked[found.key] = found.stamps
            report(event([]))
            report(.problem(UserMessage(
                nb: "Originalen kunne ikke flyttes: \(Self.describe(error)).",
                en: "The original could not be moved: \(Self.describe(error)).")))
        }
    }

    /// Moves, deletes or keeps the originals per ``Options/onSuccess`` (`processed/`), or moves
    /// them to `failed/`. Returns the new paths (relative to the watched folder).
    func putAwayOriginals(_ originals: [String], isFolder: Bool, into folder: String) throws -> [String] {
        let present = originals.filter { access($0, F_OK) == 0 }
        guard !present.isEmpty else { return [] }
        if folder == "processed" {
            switch options.onSuccess {
            case .keep:
                return []
            case .delete:
                for path in present { try FileManager.default.removeItem(atPath: path) }
                try AtomicFile.syncDirectory(URL(fileURLWithPath: present[0]).deletingLastPathComponent())
                return []
            case .move:
                break
            }
        }
        let moved = try Self.move(present, from: root, into: root + "/" + folder)
        return moved.map { Self.relative($0, to: root) }
    }

    /// Moves files (or one folder) to the same relative place below `target`, never replacing
    /// anything: a name that is taken gets ` (2)`, ` (3)` … (the same number for every page).
    /// Both folders are flushed afterwards, so the move survives a power cut.
    static func move(_ paths: [String], from root: String, into target: String) throws -> [String] {
        let parent = URL(fileURLWithPath: paths[0]).deletingLastPathComponent().path
        let relativeParent = parent == root ? "" : relative(parent, to: root)
        let destination = relativeParent.isEmpty ? target : target + "/" + relativeParent
        try AtomicFile.createDirectory(URL(fileURLWithPath: destination))
        var result: [String] = []
        var remaining = paths
        // The first number free for every page, so the pages of one document keep one name.
        var number = 1
        while number < 10_000, paths.contains(where: { path in
            access(destination + "/" + numbered(URL(fileURLWithPath: path).lastPathComponent, number), F_OK) == 0
        }) {
            number += 1
        }
        while let path = remaining.first {
            let name = URL(fileURLWithPath: path).lastPathComponent
            let to = destination + "/" + numbered(name, number)
            if renameNoReplace(path, to) {
                result.append(to)
                remaining.removeFirst()
            } else if errno == EEXIST || errno == ENOTEMPTY {
                number += 1
                guard number < 10_000 else { throw WatcherError.system("rename", path: to, errno: EEXIST) }
            } else {
                throw WatcherError.system("rename", path: path, errno: errno)
            }
        }
        try AtomicFile.syncDirectory(URL(fileURLWithPath: destination))
        try AtomicFile.syncDirectory(URL(fileURLWithPath: parent))
        return result
    }

    /// `brev.jpg` → `brev (2).jpg`; a folder `Brev` → `Brev (2)`.
    static func numbered(_ name: String, _ number: Int) -> String {
        guard number > 1 else { return name }
        let url = URL(fileURLWithPath: name)
        let ext = url.pathExtension
        let stem = ext.isEmpty ? name : url.deletingPathExtension().lastPathComponent
        return ext.isEmpty ? "\(stem) (\(number))" : "\(stem) (\(number)).\(ext)"
    }

    /// `rename` that never replaces an existing name (false with `errno` set on failure).
    static func renameNoReplace(_ from: String, _ to: String) -> Bool {
        do {
            try AtomicFile.renameNoReplace(from, to)
            return true
        } catch where error.errorNumber == EINVAL || error.errorNumber == ENOSYS {
            // Falls through to the check below.
        } catch {
            errno = error.errorNumber
            return false
        }
        // A disk without RENAME_NOREPLACE: only this program writes there, so look first.
        if access(to, F_OK) == 0 {
            errno = EEXIST
            return false
        }
        return rename(from, to) == 0
    }

    // MARK: - Failures

    /// A document that could not be filed: tried again later when the problem is the machine's
    /// and tries are left, else moved to `failed/` with a note beside it.
    private func fail(_ found: Found, sha: String, previousAttempts: Int, code: String, reason: UserMessage) {
        let name = found.displayName(relativeTo: root)
        let text = reason.text()
        if Self.passingFailures.contains(code), previousAttempts < options.retryDelays.count {
            let at = Date().addingTimeInterval(options.retryDelays[previousAttempts])
            do {
                try library.journal.fail(sha256: sha, reason: text, retryAt: at)
            } catch {
                report(.problem(Self.libraryProblem(error)))
            }
            waiting[found.key] = Waiting(stamps: found.stamps, until: at)
            report(.failed(source: name, reason: text, retryAt: at, movedTo: [], note: nil))
            return
        }
        var attempts = previousAttempts + 1
        do {
            attempts = try library.journal.fail(sha256: sha, reason: text, retryAt: nil)
        } catch {
            report(.problem(Self.libraryProblem(error)))
        }
        do {
            let moved = try putAwayOriginals(found.originals, isFolder: found.shape == .folder, into: "failed")
            var note: String?
            if let first = moved.first {
                let noteURL = Self.noteURL(for: root + "/" + first, pages: moved.count, name: found.document.name)
                try AtomicFile.write(Array(FailureNote(source: name, code: code, reason: reason, attempts: attempts,
                                                       watched: root, movedTo: first).text.utf8),
                                     to: noteURL, overwrite: true)
                note = Self.relative(noteURL.path, to: root)
            }
            report(.failed(source: name, reason: text, retryAt: nil, movedTo: moved, note: note))
        } catch {
            parked[found.key] = found.stamps
            report(.failed(source: name, reason: text, retryAt: nil, movedTo: [], note: nil))
            report(.problem(UserMessage(
                nb: "Kunne ikke flytte \(name) til failed/: \(Self.describe(error)).",
                en: "Could not move \(name) to failed/: \(Self.describe(error)).")))
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
        let count = (problems[found.key] ?? 0) + 1
        problems[found.key] = count
        let delay = min(options.retryDelays.first ?? 60, pow(2, Double(min(count, 16) - 1)))
        waiting[found.key] = Waiting(stamps: found.stamps, until: Date().addingTimeInterval(delay))
        report(.problem(message))
    }

    /// The record's reason in both languages where the code says exactly what it was.
    static func reason(code: String, text: String?) -> UserMessage {
        switch code {
        case "truncated": return InputError.truncated.message
        case "undecodable": return InputError.undecodable.message
        case "empty": return InputError.empty.message
        case "noPages": return InputError.noPages.message
        default:
            let text = text ?? UserMessage(nb: "ukjent feil", en: "unknown error").text()
            return UserMessage(nb: text, en: text)
        }
    }

    static func libraryProblem(_ error: any Error) -> UserMessage {
        if let error = error as? any UserFacingError { return error.userMessage }
        return UserMessage(nb: "Biblioteket kunne ikke oppdateres: \(error). Prøver igjen senere.",
                           en: "The library could not be updated: \(error). Trying again later.")
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? AtomicFileError { return error.message.text() }
        if let error = error as? any UserFacingError { return error.userMessage.text() }
        return "\(error)"
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
            report(.problem(Self.libraryProblem(error)))
            return
        }
        var again = 0
        for entry in entries {
            let present = entry.sourcePaths.filter { access($0, F_OK) == 0 }
            let name = entry.sourcePaths.first.map { Self.relative($0, to: root) } ?? entry.sha256
            do {
                if let held = try library.existing(sha256: entry.sha256) {
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
                    try library.journal.fail(sha256: entry.sha256, reason: reason.text(), retryAt: nil)
                } else {
                    again += 1
                }
            } catch {
                report(.problem(Self.libraryProblem(error)))
            }
        }
        if again > 0 { report(.resuming(count: again)) }
    }
}

/// The record a one-document pipeline run hands back (from its worker thread).
final class RecordBox: @unchecked Sendable {
    private let lock = NSLock()
    private var record: DocumentRecord?

    func set(_ record: DocumentRecord) {
        lock.lock()
        self.record = record
        lock.unlock()
    }

    func get() -> DocumentRecord? {
        lock.lock()
        defer { lock.unlock() }
        return record
    }
}
