import ArkivatorArchive
import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies to a folder are recorded as soon as they are written, as `cp` leaves them: in memory,
/// on their way to the disk, which the system writes within about half a minute. Nothing is lost
/// when Arkivator stops or is killed; only a power cut or a crash of the whole machine in that
/// half minute can lose them. So before a pass writes to such a destination, it notes here
/// (`<library>/uploads.unsettled.json`, written to disk) since when, and on which start of the
/// machine (`/proc/sys/kernel/random/boot_id`), it has written there. A later pass on the same
/// start, a minute after the last write, forgets the note: the copies are on the disk. A pass
/// after the machine started again finds the note and sends every copy recorded since then
/// again (a copy on the disk whole is left as it is; see ``FolderDestination``).
struct UnsettledCopies {
    /// Written but perhaps not on the disk yet: since when, the latest write, and the machine's start.
    struct Note: Codable, Equatable {
        var boot: String
        var since: Date
        var last: Date
    }

    /// How long after its last write a destination's copies are taken to be on its disk (the
    /// system writes changed files after 30 s, checking every 5 s).
    static let settleAfter: TimeInterval = 60
    /// How often a pass that writes brings the note's time of the last write up to date.
    static let refreshEvery: TimeInterval = 10

    let file: URL

    init(library: URL) {
        file = library.appendingPathComponent("uploads.unsettled.json")
    }

    /// This start of the machine; nil where the system does not say (then every note is kept
    /// until the same unknown start is seen again, and a copy is never taken to be lost).
    static var currentBoot: String? {
        guard let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8) else { return nil }
        let boot = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return boot.isEmpty ? nil : boot
    }

    /// The notes, by destination setting (none when the file is missing or unreadable).
    func notes() -> [String: Note] {
        guard let data = try? Data(contentsOf: file) else { return [:] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return (try? decoder.decode([String: Note].self, from: data)) ?? [:]
    }

    /// What a pass must do before it writes to `destination`: the time since which copies may
    /// have been lost (the machine started again since they were written), or nil.
    func lost(at destination: String, now: Date = Date(), boot: String? = currentBoot) -> Date? {
        guard let note = notes()[destination] else { return nil }
        return note.boot != (boot ?? "") ? note.since : nil
    }

    /// Notes that the pass is about to write to `destination`, or has just written there: a note
    /// already there keeps its start and its machine start (only ``settle(now:boot:resent:current:)``
    /// forgets a note), and gets `now` as its last write. Written to disk before it returns.
    func willWrite(to destination: String, now: Date = Date(), boot: String? = currentBoot) throws {
        var notes = notes()
        if var note = notes[destination] {
            note.last = max(note.last, now)
            notes[destination] = note
        } else {
            notes[destination] = Note(boot: boot ?? "", since: now, last: now)
        }
        try save(notes)
    }

    /// Forgets the notes whose copies are on the disk (same start, last write a minute ago or
    /// more), the one for `destination` when `resent` (its copies are queued again), and those for
    /// destinations other than `current` when it is given (no longer copied to).
    func settle(now: Date = Date(), boot: String? = currentBoot, resent destination: String? = nil,
                current: String? = nil) throws {
        let notes = notes()
        let kept = notes.filter { setting, note in
            setting != destination && (current == nil || setting == current)
                && !(note.boot == (boot ?? "") && now.timeIntervalSince(note.last) >= Self.settleAfter)
        }
        guard kept != notes else { return }
        if kept.isEmpty {
            if unlink(file.path) != 0, errno != ENOENT { throw UnsettledCopiesError(errno: errno) }
        } else {
            try save(kept)
        }
    }

    func save(_ notes: [String: Note]) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(Array(try encoder.encode(notes)), to: file, overwrite: true)
    }
}

/// The note of unsettled copies could not be removed.
struct UnsettledCopiesError: Error {
    var errno: Int32
}
