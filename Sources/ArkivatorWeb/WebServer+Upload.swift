import ArkivatorArchive
import ArkivatorCore
import ArkivatorIntake
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// The most bytes one uploaded page may have (as for files given to `ingest`).
    static let pageByteLimit = 64 << 20
    /// The most pages one upload may have.
    static let uploadPageLimit = 100

    /// Capture: an upload is made, its pages are sent one request each (so the phone shows
    /// progress), and `done` hands it to the inbox, which `serve` watches exactly as `watch`
    /// watches a folder: from then on it is journalled, so a crash loses nothing and files
    /// nothing twice. Until `done`, the pages wait in a staging folder beside the inbox.
    func addUploadRoutes(to router: Router<WebContext>) {
        let options = self.options, library = self.library
        router.get("/upload") { _, context -> Response in
            HTML.page(context.text("Last opp brev", "Upload letters"), body: Self.uploadBody(context: context),
                      context: context, head: "<script src=\"/static/upload.js\" defer></script>")
        }
        router.get("/static/upload.js") { _, _ in StaticFiles.asset(StaticFiles.uploadScript, type: "text/javascript") }
        router.post("/api/v1/uploads") { _, _ -> Response in
            let (_, staging) = try Self.uploadFolders(options)
            let id = Self.newUploadID()
            try AtomicFile.createDirectory(staging.appendingPathComponent(id, isDirectory: true))
            return try Self.json(UploadStatus(id: id, status: "open"), status: .created)
        }
        router.put("/api/v1/uploads/{id}/pages/{number}") { request, context -> Response in
            let (_, staging) = try Self.uploadFolders(options)
            let folder = try Self.stagingFolder(staging, context)
            guard let number = context.parameters.get("number", as: Int.self), (1...Self.uploadPageLimit).contains(number) else {
                throw HTTPError(.notFound)
            }
            let bytes: ByteBuffer
            do {
                bytes = try await request.body.collect(upTo: Self.pageByteLimit)
            } catch {
                return try Self.json(APIError(error: "tooLarge", message: context.text(
                    "Bildet er for stort (over \(Self.pageByteLimit >> 20) MB). Ta bildet på nytt med lavere oppløsning.",
                    "The image is too large (over \(Self.pageByteLimit >> 20) MB). Take it again at a lower resolution.")),
                                     status: .contentTooLarge)
            }
            let data = Array(buffer: bytes)
            let format: ImageFormat
            do throws(InputError) {
                format = try ImageFormat.sniff(data)
            } catch {
                return try Self.json(APIError(error: error.errorCode, message: error.userMessage.text(in: context.language)),
                                     status: .unsupportedMediaType)
            }
            let name = String(format: "side-%03d.", number) + format.rawValue
            // Any earlier try at this page number goes (a resent page replaces the first).
            for old in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            where old.hasPrefix(String(format: "side-%03d.", number)) {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(old))
            }
            try AtomicFile.write(data, to: folder.appendingPathComponent(name), overwrite: true)
            return try Self.json(UploadStatus(id: folder.lastPathComponent, status: "open"))
        }
        router.post("/api/v1/uploads/{id}/done") { _, context -> Response in
            let (inbox, staging) = try Self.uploadFolders(options)
            let folder = try Self.stagingFolder(staging, context)
            let pages = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("side-") }
            guard !pages.isEmpty else {
                return try Self.json(APIError(error: "noPages", message: context.text(
                    "Opplastingen har ingen sider. Velg ett eller flere bilder.", "The upload has no pages. Choose one or more images.")),
                                     status: .badRequest)
            }
            try AtomicFile.createDirectory(inbox)
            let target = inbox.appendingPathComponent(folder.lastPathComponent, isDirectory: true)
            // One rename on one disk: the watcher sees the whole document or nothing.
            guard rename(folder.path, target.path) == 0 else { throw HTTPError(.internalServerError) }
            Self.syncDirectory(inbox)
            Self.syncDirectory(staging)
            return try Self.json(UploadStatus(id: target.lastPathComponent, status: "received"))
        }
        router.get("/api/v1/uploads/{id}") { _, context -> Response in
            let (inbox, staging) = try Self.uploadFolders(options)
            guard let id = context.parameters.get("id"), Self.isUploadID(id) else { throw HTTPError(.notFound) }
            if FileManager.default.fileExists(atPath: staging.appendingPathComponent(id).path) {
                return try Self.json(UploadStatus(id: id, status: "open"))
            }
            let source = inbox.appendingPathComponent(id).path
            guard let entry = try library.journal.entry(source: source) else {
                guard FileManager.default.fileExists(atPath: source) else { throw HTTPError(.notFound) }
                return try Self.json(UploadStatus(id: id, status: "received"))
            }
            var status = UploadStatus(id: id, status: entry.stage.rawValue)
            if let row = entry.documentID { status.document = try library.shortID(row: row) }
            if let failure = entry.failure {
                status.message = failure.userMessage.text(in: context.language)
            }
            return try Self.json(status)
        }
    }

    struct UploadStatus: Encodable {
        var id: String
        /// `open` (pages may still come), `received` (in the inbox), then the journal's stages:
        /// `recognised`, `classified`, `written`, `indexed`, `done`, `duplicate`, `failed`.
        var status: String
        /// The filed document's id, once there is one.
        var document: String?
        var message: String?
    }

    /// The inbox `serve` watches and the staging folder beside it, or 503 when uploads are off.
    static func uploadFolders(_ options: Options) throws -> (inbox: URL, staging: URL) {
        guard let inbox = options.inbox else { throw HTTPError(.serviceUnavailable) }
        return (inbox, inbox.deletingLastPathComponent().appendingPathComponent(".opplasting", isDirectory: true))
    }

    /// An upload's staging folder from the `id` path parameter (32 hex digits), or 404.
    static func stagingFolder(_ staging: URL, _ context: WebContext) throws -> URL {
        guard let id = context.parameters.get("id"), isUploadID(id) else { throw HTTPError(.notFound) }
        let folder = staging.appendingPathComponent(id, isDirectory: true)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw HTTPError(.notFound)
        }
        return folder
    }

    static func isUploadID(_ id: String) -> Bool {
        id.count == 32 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    static func newUploadID() -> String {
        (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    static func syncDirectory(_ url: URL) {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    static func uploadBody(context: WebContext) -> String {
        let t = context.language
        return """
            <form id="upload" class="upload">
            <p><label for="files">\(t.text("Ta bilde eller velg filer (bilder eller PDF)", "Take a photo or choose files (images or PDF)"))</label><br>
            <input id="files" name="files" type="file" accept="image/*,application/pdf" capture="environment" multiple required></p>
            <fieldset><legend>\(t.text("Flere bilder er", "Several images are"))</legend>
            <label><input type="radio" name="grouping" value="one" checked> \(t.text("sidene i ett brev, i rekkefølge", "the pages of one letter, in order"))</label><br>
            <label><input type="radio" name="grouping" value="each"> \(t.text("hvert sitt brev", "each its own letter"))</label>
            </fieldset>
            <p><button type="submit">\(t.text("Last opp", "Upload"))</button></p>
            </form>
            <ol id="progress" class="documents" aria-live="polite"></ol>
            <noscript><p class="problem">\(t.text("Opplasting trenger JavaScript i nettleseren.", "Uploading needs JavaScript in the browser."))</p></noscript>
            """
    }
}
