import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorPipeline
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What happens to the originals in the watched folder once a document is settled: moved to
/// `processed/` (or deleted, or kept) after filing, to `failed/` after a failure, never replacing
/// a name that is taken.
extension Watcher {
    // MARK: - Originals

    /// After filing: the original goes as ``Options/onSuccess`` says, then the entry is `done`.
    /// When the original cannot be moved the document stays `indexed` (it is filed; the next
    /// start moves it) and is left alone until it changes.
    func finishFiled(sha: String, originals: [String], isFolder: Bool, key: String, stamps: [Stamp],
                     event: ([String]) -> Event) {
        do {
            let moved = try putAwayOriginals(originals, isFolder: isFolder, into: "processed")
            if options.onSuccess == .keep { schedule.park(key, stamps: stamps) }
            try library.journal.advance(sha256: sha, to: .done)
            report(event(moved))
        } catch {
            schedule.park(key, stamps: stamps)
            report(event([]))
            let why = UserMessage(error: error)
            report(.problem(UserMessage(
                nb: "Dokumentet er arkivert, men originalen kunne ikke flyttes: \(why.norwegian) Den flyttes neste gang arkivator watch starter.",
                en: "The document is filed, but the original could not be moved: \(why.english) It is moved the next time arkivator watch starts.")))
        }
    }

    /// A duplicate: journalled as such, then the original goes as for a filed document.
    func putAway(_ found: Found, sha: String, stage: JournalEntry.Stage, event: ([String]) -> Event) {
        do {
            try library.journal.advance(sha256: sha, to: stage)
            let moved = try putAwayOriginals(found.originals, isFolder: found.shape == .folder, into: "processed")
            if options.onSuccess == .keep { schedule.park(found.key, stamps: found.stamps) }
            report(event(moved))
        } catch {
            schedule.park(found.key, stamps: found.stamps)
            report(event([]))
            let why = UserMessage(error: error)
            report(.problem(UserMessage(nb: "Originalen kunne ikke flyttes: \(why.norwegian)",
                                        en: "The original could not be moved: \(why.english)")))
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
}
