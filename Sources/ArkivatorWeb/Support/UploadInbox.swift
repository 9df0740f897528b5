import ArkivatorArchive
import ArkivatorCore
import ArkivatorIntake
import Foundation

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
        let format: ImageFormat
        do throws(InputError) {
            format = try ImageFormat.sniff(bytes)
        } catch {
            if error.errorCode == "truncated", FileSignature.isPDF(bytes) {
                throw WebError(.unsupportedMediaType, code: "truncated", nb: "PDF-en er ikke hel (den slutter for tidlig). Last den ned på nytt og prøv igjen.",
                               en: "The PDF is not whole (it ends too early). Download it again and try again.")
            }
            throw WebError(.unsupportedMediaType, code: error.errorCode, message: error.userMessage)
        }
        let prefix = String(format: "side-%03d.", number)
        for old in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where old.hasPrefix(prefix) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(old))
        }
        try AtomicFile.write(bytes, to: folder.appendingPathComponent(prefix + format.rawValue), overwrite: true)
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
        (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
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
