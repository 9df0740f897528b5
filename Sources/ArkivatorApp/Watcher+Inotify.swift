import ArkivatorArchive
import ArkivatorCore
import ArkivatorPipeline
import Foundation
#if canImport(Glibc)
import Glibc
#endif

#if canImport(Glibc)
/// Linux file events for a folder tree, through `inotify(7)` (Dispatch has no file-system sources
/// on Linux). One watch per folder; the owner adds folders as it finds them.
final class Inotify {
    /// What happened to one name in a watched folder.
    struct Event {
        /// The full path of the file or folder the event names.
        let path: String
        /// The watched folder it happened in.
        let folder: String
        let mask: UInt32

        var isDirectory: Bool { mask & UInt32(IN_ISDIR) != 0 }
        /// A new name (a file being created, or a folder).
        var isCreate: Bool { mask & UInt32(IN_CREATE) != 0 }
        /// A file opened for writing was closed, or a name was moved in: its writer is done.
        var isComplete: Bool { mask & (UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO)) != 0 }
    }

    /// The events arkivator needs: a file written and closed, a name moved in, a name created.
    static let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_ONLYDIR)

    /// The inotify descriptor, for `poll`.
    let descriptor: Int32
    private var folders: [Int32: String] = [:]
    private var watches: [String: Int32] = [:]
    /// True when the kernel's queue overflowed or a watch could not be added: events were lost,
    /// so the owner must look at everything again.
    var missedEvents = false

    init() throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard descriptor >= 0 else {
            throw WatcherError.system("inotify_init1", path: "", errno: errno)
        }
    }

    deinit {
        close(descriptor)
    }

    var watchedFolders: Int { watches.count }

    /// Watches a folder (again is harmless). Returns false if it cannot be watched (gone, or the
    /// user's limit of watches is reached: `fs.inotify.max_user_watches`); the rescan covers it.
    @discardableResult
    func watch(_ folder: String) -> Bool {
        if watches[folder] != nil { return true }
        let wd = inotify_add_watch(descriptor, folder, Self.mask)
        guard wd >= 0 else {
            if errno == ENOSPC { missedEvents = true }
            return false
        }
        if let old = folders[wd], old != folder { watches[old] = nil }
        folders[wd] = folder
        watches[folder] = wd
        return true
    }

    /// Stops watching folders that are no longer wanted (moved away into `processed/` …).
    func keepOnly(_ wanted: Set<String>) {
        for (folder, wd) in watches where !wanted.contains(folder) {
            inotify_rm_watch(descriptor, wd)
            watches[folder] = nil
            folders[wd] = nil
        }
    }

    /// Every event waiting now (never blocks).
    func read() -> [Event] {
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                    (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                     raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                var name = ""
                if length > 0 {
                    let bytes = buffer[(offset + header)..<min(count, offset + header + length)]
                    name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                offset += header + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    missedEvents = true
                    continue
                }
                if mask & UInt32(IN_IGNORED) != 0 {
                    if let folder = folders[wd] { watches[folder] = nil }
                    folders[wd] = nil
                    continue
                }
                guard let folder = folders[wd] else { continue }
                events.append(Event(path: name.isEmpty ? folder : folder + "/" + name, folder: folder, mask: mask))
            }
        }
        return events
    }
}
#endif

/// A system call that failed while watching.
struct WatcherError: UserFacingError {
    let operation: String
    let path: String
    let number: Int32

    static func system(_ operation: String, path: String, errno number: Int32) -> WatcherError {
        WatcherError(operation: operation, path: path, number: number)
    }

    /// The same failure as the archive's writes name it, for the causes a person can act on (a full disk).
    private var fileError: AtomicFileError? {
        let error = AtomicFileError(errno: number, operation: operation, path: path)
        return error.kind == .diskFull ? error : nil
    }

    var errorCode: String { fileError?.errorCode ?? "watch" }

    var userMessage: UserMessage {
        if let fileError { return fileError.userMessage }
        let what = "\(operation)\(path.isEmpty ? "" : " \(ShownName.of(path))"): \(String(cString: strerror(number)))"
        return UserMessage(nb: "Et systemkall feilet under overvåkingen av mappen (\(what)).",
                           en: "A system call failed while watching the folder (\(what)).")
    }
}
