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

/// Copies files into a folder (another disk, a folder a sync program watches).
///
/// A new file is written with no name (`O_TMPFILE`) and named when whole; a file replaced is
/// written to a temporary file beside it and renamed over it in one step: a target is never
/// half-written; the files reach the disk as the system writes them (see ``UnsettledCopies``). A
/// target with the same size and the same bytes is left alone. The root folder itself is never
/// created (a missing root is a disk that is not connected: tried again later); the folders
/// below it are, readable by their owner only.
public struct FolderDestination: UploadDestination {
    public let root: URL
    /// What this destination (opened once per pass) has learnt about the folder.
    private let state = FolderPassState()

    public init(root: URL) {
        self.root = root
    }

    public func upload(_ file: UploadFile) async throws -> UploadResult {
        let (root, state) = (root, state)
        return try await FileWork.run { try Self.copy(file, into: root, state: state) }
    }

    /// Copies are left for the system to write to the disk, as `cp` leaves them (see ``UnsettledCopies``).
    public var writesReachDiskLater: Bool { true }

    public func close() async {}

    public func move(from: String, to: String) async throws -> Bool {
        let root = root
        return try await FileWork.run { try Self.move(from, to, in: root) }
    }

    public func remove(_ path: String) async throws {
        let root = root
        try await FileWork.run { try Self.remove(path, in: root) }
    }

    public func list() async throws -> [ListedFile] {
        let root = root
        return try await FileWork.run { try Self.list(root) }
    }

    /// A letter's steps together, on one blocking thread.
    public func perform(_ steps: [MirrorStep]) async -> (done: [MirrorStepResult], stopped: (any Error)?) {
        let (root, state) = (root, state)
        do {
            return try await FileWork.run { Self.perform(steps, in: root, state: state) }
        } catch {
            return ([], error)
        }
    }

    /// Several letters' steps on two threads side by side (letters never share a file; making
    /// and removing their folders copes with the other thread doing the same).
    public func perform(letters: [[MirrorStep]]) async -> [(done: [MirrorStepResult], stopped: (any Error)?)] {
        let (root, state) = (root, state)
        do {
            return try await FileWork.run {
                let outcomes = NIOLockedValueBox([(done: [MirrorStepResult], stopped: (any Error)?)](repeating: ([], nil), count: letters.count))
                let next = NIOLockedValueBox(0)
                DispatchQueue.concurrentPerform(iterations: min(2, letters.count)) { _ in
                    while true {
                        let index = next.withLockedValue { value -> Int in
                            defer { value += 1 }
                            return value
                        }
                        guard index < letters.count else { return }
                        let outcome = Self.perform(letters[index], in: root, state: state)
                        outcomes.withLockedValue { $0[index] = outcome }
                    }
                }
                return outcomes.withLockedValue { $0 }
            }
        } catch {
            return letters.map { _ in ([], error) }
        }
    }

    static func perform(_ steps: [MirrorStep], in root: URL,
                        state: FolderPassState) -> (done: [MirrorStepResult], stopped: (any Error)?) {
        var done: [MirrorStepResult] = []
        do throws(UploadFailure) {
            for step in steps {
                switch step {
                case .move(let from, let file):
                    done.append(try move(from, file.relativePath, in: root) ? .moved : .uploaded(try copy(file, into: root, state: state)))
                case .upload(let file):
                    done.append(.uploaded(try copy(file, into: root, state: state)))
                case .remove(let path):
                    try remove(path, in: root)
                    done.append(.removed)
                }
            }
            return (done, nil)
        } catch {
            return (done, error)
        }
    }

    // MARK: - Moves, removals, listing (blocking)

    static func checkRoot(_ root: URL) throws(UploadFailure) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .folderMissing(root.path)
        }
    }

    static func move(_ from: String, _ to: String, in root: URL) throws(UploadFailure) -> Bool {
        let source = try relativeComponents(from), target = try relativeComponents(to)
        try checkRoot(root)
        let sourcePath = root.path + "/" + source.joined(separator: "/")
        var info = stat()
        guard lstat(sourcePath, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        var folder = root.path
        for part in target.dropLast() {
            folder += "/" + part
            if mkdir(folder, 0o700) != 0, errno != EEXIST { throw failure(errno, path: folder) }
        }
        let targetPath = folder + "/" + (target.last ?? "")
        guard rename(sourcePath, targetPath) == 0 else { throw failure(errno, path: targetPath) }
        removeEmptyFolders(above: source, in: root)
        return true
    }

    static func remove(_ path: String, in root: URL) throws(UploadFailure) {
        let parts = try relativeComponents(path)
        try checkRoot(root)
        let full = root.path + "/" + parts.joined(separator: "/")
        guard unlink(full) == 0 || errno == ENOENT else { throw failure(errno, path: full) }
        removeEmptyFolders(above: parts, in: root)
    }

    /// Removes the folders of `parts` (deepest first) that are empty now; never the root.
    static func removeEmptyFolders(above parts: [String], in root: URL) {
        var levels = Array(parts.dropLast())
        while !levels.isEmpty {
            let folder = root.path + "/" + levels.joined(separator: "/")
            guard rmdir(folder) == 0 else { return }
            levels.removeLast()
        }
    }

    static func list(_ root: URL) throws(UploadFailure) -> [ListedFile] {
        try checkRoot(root)
        var found: [ListedFile] = []
        let base = root.standardizedFileURL.path + "/"
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        while let relative = walker.nextObject() as? String {
            let full = base + relative
            var info = stat()
            guard lstat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".arkivator-") && name.hasSuffix(".tmp") { continue }
            let digest = Library.digest(full)
            found.append(ListedFile(path: relative, size: digest?.1 ?? Int(info.st_size), sha256: digest?.0))
        }
        return found.sorted { $0.path < $1.path }
    }

    // MARK: - The copy (blocking)

    static func copy(_ file: UploadFile, into root: URL,
                     state: FolderPassState = FolderPassState()) throws(UploadFailure) -> UploadResult {
        let parts = try relativeComponents(file.relativePath)
        let folder = ([root.path] + parts.dropLast()).joined(separator: "/")
        let target = folder + "/" + (parts.last ?? "")
        // A folder this pass made sure of is not looked at again (a pass copies many letters to
        // the same few folders); one gone since (emptied by a removal) is made again below.
        if !state.folders.withLockedValue({ $0.contains(folder) }) { try prepare(folder, parts: parts, root: root, state: state) }

        let source = Posix.open(file.path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else {
            throw errno == ENOENT ? .missingFile(file.path) : failure(errno, path: file.path)
        }
        defer { Posix.close(source) }
        var sourceInfo = stat()
        guard fstat(source, &sourceInfo) == 0 else { throw failure(errno, path: file.path) }
        let size = Int(sourceInfo.st_size)

        var targetInfo = stat()
        let targetExists = lstat(target, &targetInfo) == 0
        if targetExists, try sameContent(source: source, size: sourceInfo.st_size, target: target) { return .unchanged }

        // A new file: written as a file with no name (`O_TMPFILE`) and given its name when whole
        // (`linkat`), so it is never seen half-written, and a crash leaves nothing behind.
        if !targetExists, state.namesUnnamedFiles.withLockedValue({ $0 }) {
            var output = Posix.open(folder, O_WRONLY | O_CLOEXEC | Self.unnamedFile, 0o600)
            if output < 0, errno == ENOENT {
                try prepare(folder, parts: parts, root: root, state: state)
                output = Posix.open(folder, O_WRONLY | O_CLOEXEC | Self.unnamedFile, 0o600)
            }
            if output >= 0 {
                defer { Posix.close(output) }
                try copyBytes(from: source, to: output, size: size, source: file.path, target: target)
                if linkat(AT_FDCWD, "/proc/self/fd/\(output)", AT_FDCWD, target, AT_SYMLINK_FOLLOW) == 0 { return .uploaded }
                // Named meanwhile, or no `/proc`: the named temporary below.
                let cause = errno
                if ![EEXIST, ENOENT, EPERM, EACCES, EXDEV].contains(cause) { throw failure(cause, path: target) }
                // A system that cannot name such a file (no `/proc`, or it links across mounts):
                // the rest of the pass writes named temporaries at once, not every file twice.
                if cause != EEXIST { state.namesUnnamedFiles.withLockedValue { $0 = false } }
            }
            // No unnamed files on this file system (`EOPNOTSUPP`, `EISDIR`): the named temporary below.
            else if errno != ENOENT { state.namesUnnamedFiles.withLockedValue { $0 = false } }
        }

        // A file to replace: a temporary file beside it, renamed over it when whole. A copy cut
        // off by a crash (power cut, SIGKILL) left its temporary file here; the job is tried again
        // into this same folder, and one pass at a time uploads (`uploads.lock`), so every such
        // file now is a leftover (looked for once per folder and pass).
        let temporary = folder + "/.arkivator-\(UUID().uuidString).tmp"
        let output = Posix.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw failure(errno, path: temporary) }
        var published = false
        defer {
            if !published { unlink(temporary) }
        }
        do {
            defer { Posix.close(output) }
            try copyBytes(from: source, to: output, size: size, source: file.path, target: target)
        }
        guard rename(temporary, target) == 0 else { throw failure(errno, path: target) }
        published = true
        return .uploaded
    }

    /// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`; a macro the Glibc module does not import).
    static let unnamedFile: Int32 = 0o20000000 | O_DIRECTORY

    /// Makes sure the folder of a copy is there (the root must be: a missing root is a disk not
    /// connected), making the folders below the root, and clears it of leftover temporaries.
    static func prepare(_ folder: String, parts: [String], root: URL,
                        state: FolderPassState) throws(UploadFailure) {
        try checkRoot(root)
        var path = root.path
        for part in parts.dropLast() {
            path += "/" + part
            if mkdir(path, 0o700) != 0, errno != EEXIST { throw failure(errno, path: path) }
        }
        removeLeftoverTemporaries(in: folder)
        state.folders.withLockedValue { _ = $0.insert(folder) }
    }

    /// Copies `size` bytes from the start of `input` to `output`: in the kernel where it can
    /// (`copy_file_range`), else through a buffer.
    static func copyBytes(from input: Int32, to output: Int32, size: Int, source: String, target: String) throws(UploadFailure) {
        guard lseek(input, 0, SEEK_SET) == 0 else { throw failure(errno, path: source) }
        var left = size
        while left > 0 {
            let step = linuxCopyFileRange(input, nil, output, nil, left, 0)
            if step > 0 {
                left -= step
                continue
            }
            if step < 0, errno == EINTR { continue }
            if step == 0 || [EXDEV, ENOSYS, EINVAL, EOPNOTSUPP, EBADF].contains(errno) { break }
            throw failure(errno, path: target)
        }
        if left == 0 { return }
        // What the kernel did not copy: the rest through a buffer.
        let done = off_t(size - left)
        guard lseek(input, done, SEEK_SET) == done, lseek(output, done, SEEK_SET) == done else {
            throw failure(errno, path: source)
        }
        var buffer = [UInt8](repeating: 0, count: min(max(left, 1), 1 << 20))
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(errno, path: source)
            }
            if count == 0 { break }
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { bytes in
                    bytes.baseAddress.map { write(output, $0 + written, count - written) } ?? -1
                }
                if step < 0 {
                    if errno == EINTR { continue }
                    throw failure(errno, path: target)
                }
                written += step
            }
        }
    }

    /// Removes `.arkivator-….tmp` files (this destination's own temporaries) from `folder`.
    static func removeLeftoverTemporaries(in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(".arkivator-") && name.hasSuffix(".tmp") {
            _ = unlink(folder + "/" + name)
        }
    }

    /// Whether `target` is a regular file with `size` bytes equal to the source's.
    static func sameContent(source: Int32, size: off_t, target: String) throws(UploadFailure) -> Bool {
        var info = stat()
        guard lstat(target, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size == size else { return false }
        let other = Posix.open(target, O_RDONLY | O_CLOEXEC)
        guard other >= 0 else { return false }
        defer { Posix.close(other) }
        var left = [UInt8](repeating: 0, count: 1 << 16)
        var right = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while offset < size {
            let wanted = Int(min(off_t(left.count), size - offset))
            let a = left.withUnsafeMutableBytes { pread(source, $0.baseAddress, wanted, offset) }
            let b = right.withUnsafeMutableBytes { pread(other, $0.baseAddress, wanted, offset) }
            guard a > 0, a == b else {
                if a < 0 { throw failure(errno, path: target) }
                return false
            }
            guard left[0..<a] == right[0..<b] else { return false }
            offset += off_t(a)
        }
        return true
    }

    /// A system error as the queue sees it.
    static func failure(_ number: Int32, path: String) -> UploadFailure {
        let detail = String(cString: strerror(number))
        switch number {
        case ENOSPC, EDQUOT:
            return .full(path, detail: detail)
        case EACCES, EPERM, EROFS:
            return .init(.refused, nb: "Mangler skrivetilgang til \(path) (\(detail)).", en: "No permission to write \(path) (\(detail)).",
                         detail: detail)
        case ENAMETOOLONG:
            return .badRelativePath(path)
        default:
            return .init(.transient, nb: "Kunne ikke skrive \(path) (\(detail)). Prøver igjen senere.",
                         en: "Could not write \(path) (\(detail)). Trying again later.", detail: detail)
        }
    }
}

/// What a folder destination learns in a pass: the folders it has cleared of leftover
/// temporaries, and whether the system can name a file written with no name (`O_TMPFILE`).
final class FolderPassState: Sendable {
    let folders = NIOLockedValueBox<Set<String>>([])
    let namesUnnamedFiles = NIOLockedValueBox(true)
}

/// glibc's `copy_file_range(2)` (declared only with `_GNU_SOURCE`): copies between two files in
/// the kernel, without the bytes passing through this process.
@_silgen_name("copy_file_range")
private func linuxCopyFileRange(_ input: Int32, _ inputOffset: UnsafeMutablePointer<Int64>?, _ output: Int32,
                                _ outputOffset: UnsafeMutablePointer<Int64>?, _ length: Int, _ flags: UInt32) -> Int
