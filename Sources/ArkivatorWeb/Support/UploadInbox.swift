import ArkivatorArchive
import ArkivatorCore
import ArkivatorIntake
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The folders behind the upload page: an upload's pages wait in `LIBRARY/.opplasting/ID/`, and
/// `finish` hands the whole folder to the inbox (`LIBRARY/Innboks/`) with one rename, which
/// `serve` watches as `watch` watches a folder. Blocking file work: call it from a thread of
/// the library's own (``AsyncLibrary/files(_:)``), never from the pool that serves requests.
struct UploadInbox: Sendable {
    let inbox: URL
    var staging: URL { inbox.deletingLastPathComponent().appendingPathComponent(LibraryFolder.uploadStaging.rawValue, isDirectory: true) }
    /// Uploads not finished within this time were abandoned (the page was closed half-way).
    static let abandonedAfter: TimeInterval = 24 * 3600

    static func isUploadID(_ id: String) -> Bool {
        id.count == 32 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// Makes a new upload's folder and returns its id.
    func create() throws -> String {
        let id = Self.newID()
        try AtomicFile.createDirectory(staging.appendingPathComponent(id, isDirectory: true))
        return id
    }

    /// The folder of an upload still open, or nil.
    func openFolder(_ id: String) -> URL? {
        guard Self.isUploadID(id) else { return nil }
        let folder = staging.appendingPathComponent(id, isDirectory: true)
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) && isFolder.boolValue ? folder : nil
    }

    /// Stores page `number` of upload `id` (replacing an earlier try), after checking by its bytes
    /// that it is an image or PDF arkivator reads.
    func putPage(_ id: String, number: Int, bytes: [UInt8]) throws {
        guard let folder = openFolder(id) else { throw WebError.notFound }
        let format = try Self.format(head: Array(bytes.prefix(16))) { () throws(InputError) in try ImageFormat.sniff(bytes) }
        removePage(number, in: folder)
        try AtomicFile.write(bytes, to: folder.appendingPathComponent(Self.pageName(number, format)), overwrite: true)
    }

    /// Where page `number` of upload `id` is written while its bytes arrive (then
    /// ``placePage(_:number:from:)``): beside the upload's folder, never in it, so a letter handed
    /// over meanwhile takes no half-sent page along. Throws 404 when there is no such open upload.
    func pageInProgress(_ id: String, number: Int) throws -> URL {
        guard openFolder(id) != nil else { throw WebError.notFound }
        return staging.appendingPathComponent("samles-\(id)-\(number)-\(Self.newID()).del")
    }

    /// Stores the page that arrived in `part` as page `number` of upload `id` (replacing an
    /// earlier try), after checking by its first and last bytes that it is an image or PDF
    /// arkivator reads. `part` is gone afterwards, whatever happened.
    func placePage(_ id: String, number: Int, from part: URL) throws {
        defer { _ = unlink(part.path) }
        guard let folder = openFolder(id) else { throw WebError.notFound }
        let handle = try FileHandle(forReadingFrom: part)
        defer { try? handle.close() }
        let size = Int(try handle.seekToEnd())
        try handle.seek(toOffset: 0)
        let head = [UInt8](try handle.read(upToCount: ImageFormat.probeBytes) ?? Data())
        try handle.seek(toOffset: UInt64(max(0, size - ImageFormat.probeBytes)))
        let tail = [UInt8](try handle.read(upToCount: ImageFormat.probeBytes) ?? Data())
        let format = try Self.format(head: head) { () throws(InputError) in try ImageFormat.sniff(head: head, tail: tail, size: size) }
        removePage(number, in: folder)
        try AtomicFile.publish(temporary: part, to: folder.appendingPathComponent(Self.pageName(number, format)), overwrite: true)
    }

    /// Opens `part` (new, for the owner only) for writing a page as it arrives; returns its descriptor.
    static func openPart(_ part: URL) throws -> Int32 {
        let descriptor = open(part.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw AtomicFileError(errno: errno, operation: "open", path: part.path) }
        return descriptor
    }

    /// Writes `bytes` at the end of the part open at `descriptor` (a full disk is the full disk's error).
    static func appendPart(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
        var written = 0
        while written < bytes.count {
            let step = bytes.withUnsafeBytes { raw in
                raw.baseAddress.map { write(descriptor, $0 + written, bytes.count - written) } ?? -1
            }
            if step < 0 {
                if errno == EINTR { continue }
                throw AtomicFileError(errno: errno, operation: "write", path: path)
            }
            written += step
        }
    }

    /// `side-007.jpeg`: page 7, a JPEG.
    private static func pageName(_ number: Int, _ format: ImageFormat) -> String {
        String(format: "side-%03d.", number) + format.rawValue
    }

    /// Removes an earlier try at page `number`.
    private func removePage(_ number: Int, in folder: URL) {
        let prefix = String(format: "side-%03d.", number)
        for old in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where old.hasPrefix(prefix) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(old))
        }
    }

    /// The format a page's bytes show (`head`: its first bytes), or the answer that says why it
    /// is refused (415).
    private static func format(head: [UInt8], _ sniff: () throws(InputError) -> ImageFormat) throws -> ImageFormat {
        do throws(InputError) {
            return try sniff()
        } catch {
            if error.errorCode == "truncated", FileSignature.isPDF(head) {
                throw WebError(.unsupportedMediaType, code: "truncated", nb: "PDF-en er ikke hel (den slutter for tidlig). Last den ned på nytt og prøv igjen.",
                               en: "The PDF is not whole (it ends too early). Download it again and try again.")
            }
            throw WebError(.unsupportedMediaType, code: error.errorCode, message: error.userMessage)
        }
    }

    /// The page files in an upload's folder by their numbers (`side-007.jpg` is page 7).
    func pages(in folder: URL) -> [Int: String] {
        var pages: [Int: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix("side-") {
            let digits = name.dropFirst(5).prefix { $0.isASCII && $0.isNumber }
            if digits.count == 3, let number = Int(digits) { pages[number] = name }
        }
        return pages
    }

    /// Hands upload `id` to the inbox as the letters `plan` makes of its pages (all of them one
    /// letter in page-number order, unless the plan says otherwise) and returns the letters'
    /// ids, the upload's own first; nil when it has no pages. Throws 404 when there is no such
    /// open upload, 409 when the plan's order is not exactly the pages that were sent.
    func finish(_ id: String, plan: UploadPlan = UploadPlan()) throws -> [String]? {
        guard let folder = openFolder(id) else { throw WebError.notFound }
        let stored = pages(in: folder)
        guard !stored.isEmpty else { return nil }
        let letters = try plan.letters(of: Array(stored.keys))
        try AtomicFile.createDirectory(inbox)
        if letters.count == 1, letters[0] == stored.keys.sorted() {
            // One rename on one disk: the watcher sees the whole document or nothing.
            try handOver(folder, as: id)
            try AtomicFile.syncDirectory(staging)
            return [id]
        }
        // Each letter is first gathered in a folder of its own beside the upload, its pages named
        // in the plan's order; only when every page has its place are the letters handed over,
        // each with one rename.
        var gathered: [(folder: URL, id: String)] = []
        for (index, letter) in letters.enumerated() {
            let name = "samles-" + Self.newID()
            let target = staging.appendingPathComponent(name, isDirectory: true)
            try AtomicFile.createDirectory(target)
            for (position, number) in letter.enumerated() {
                guard let file = stored[number] else { continue }
                let ending = URL(fileURLWithPath: file).pathExtension
                let renamed = target.appendingPathComponent(String(format: "side-%03d.", position + 1) + ending)
                guard rename(folder.appendingPathComponent(file).path, renamed.path) == 0 else { throw Self.notHanded }
            }
            try AtomicFile.syncDirectory(target)
            gathered.append((target, index == 0 ? id : Self.newID()))
        }
        try? FileManager.default.removeItem(at: folder)
        for letter in gathered { try handOver(letter.folder, as: letter.id) }
        try AtomicFile.syncDirectory(staging)
        return gathered.map(\.id)
    }

    private func handOver(_ folder: URL, as id: String) throws {
        guard rename(folder.path, inbox.appendingPathComponent(id).path) == 0 else { throw Self.notHanded }
        try AtomicFile.syncDirectory(inbox)
    }

    private static let notHanded = WebError(.internalServerError, code: "inbox", nb: "Brevet kunne ikke legges i innboksen. Prøv igjen.",
                                            en: "The letter could not be put in the inbox. Try again.")

    private static func newID() -> String {
        Hex.random(bytes: 16)
    }

    /// Removes upload `id` while it is still open (a form that failed half-way).
    func discard(_ id: String) {
        if let folder = openFolder(id) { try? FileManager.default.removeItem(at: folder) }
    }

    /// Where upload `id` is before the journal has it: `open`, `received` (in the inbox) or nil.
    func place(_ id: String) -> String? {
        guard Self.isUploadID(id) else { return nil }
        if openFolder(id) != nil { return "open" }
        return FileManager.default.fileExists(atPath: inbox.appendingPathComponent(id).path) ? "received" : nil
    }

    /// The path the journal knows upload `id` by.
    func source(_ id: String) -> String { inbox.appendingPathComponent(id).path }

    /// Removes uploads never finished within ``abandonedAfter`` (nothing of them was received),
    /// and letters left half-gathered by a stop in the middle of ``finish(_:plan:)``.
    func removeAbandoned(now: Date = Date()) {
        let cutoff = now.addingTimeInterval(-Self.abandonedAfter)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
        where Self.isUploadID(name) || name.hasPrefix("samles-") {
            let folder = staging.appendingPathComponent(name)
            let made = (try? FileManager.default.attributesOfItem(atPath: folder.path)[.modificationDate] as? Date) ?? now
            if made < cutoff { try? FileManager.default.removeItem(at: folder) }
        }
    }
}
