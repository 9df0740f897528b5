import ArkivatorCore
import ArkivatorLibrary
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Uploads to a WebDAV folder over HTTP(S) with AsyncHTTPClient.
///
/// Per file: `PROPFIND` (depth 0) asks for the remote size; when it equals the local size (or the
/// server gives none) the remote file is fetched (`GET`) and compared byte for byte, and an equal
/// file is left alone (archive files are small, and no ETag a server makes says what bytes it
/// holds). Otherwise each folder level that is missing is made (`MKCOL`; 405 means it is there
/// already), the file is sent (`PUT`), and `PROPFIND` checks that the server holds as many bytes
/// as were sent (a server that reports no size is taken at its word).
///
/// Answers: 401/403 → ``UploadFailure/Kind/authentication``; 507 → `.full`; 408, 425, 429 and
/// other 5xx, and any connection failure or time-out → `.transient`; other 4xx → `.refused`.
public actor WebDAVDestination: UploadDestination {
    public nonisolated let base: URL
    private let authorization: String?
    private var knownFolders: Set<String> = []
    private let name: String

    public init(base: URL, credentials: WebDAVCredentials?) {
        self.base = base
        authorization = credentials?.basicAuthorization
        name = Destination.webdav(base).displayName
    }

    /// One client for the process (never shut down, so no destination has to remember to):
    /// connections give up after 10 s, reads after 60 s of silence. A connection that fails is
    /// not tried again by the client (it would keep trying until the connect time-out): the
    /// queue does the retrying, with its back-off, and a refused connection fails the try at once.
    private static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(10), read: .seconds(60)))
        configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    private var client: HTTPClient { Self.sharedClient }

    /// Nothing to let go: the client is shared by the process.
    public func close() async {}

    public func upload(_ file: UploadFile) async throws -> UploadResult {
        let parts = try relativeComponents(file.relativePath)
        let local = try await FileWork.run { () throws -> Data in
            guard let data = FileManager.default.contents(atPath: file.path) else { throw UploadFailure.missingFile(file.path) }
            return data
        }
        let url = address(parts, folder: false)
        let before = try await remoteSize(url, file: file.relativePath)
        if before == .size(local.count) || before == .unknown,
           try await remoteBytes(url, file: file.relativePath, expected: local.count) == local {
            return .unchanged
        }
        try await makeFolders(Array(parts.dropLast()), file: file.relativePath)
        var request = HTTPClientRequest(url: url)
        request.method = .PUT
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.body = .bytes(ByteBuffer(bytes: local))
        let status = try await send(request, file: file.relativePath, timeout: 60 + Double(local.count) / 100_000).status
        try check(status, file: file.relativePath, accepting: [200, 201, 204])
        // A server that does not report sizes cannot be checked; one that does must hold every byte.
        switch try await remoteSize(url, file: file.relativePath) {
        case .size(local.count), .unknown:
            break
        case .size(let stored):
            throw UploadFailure.serverError(name, detail: "PROPFIND: \(stored) of \(local.count) bytes of \(file.relativePath)")
        case .missing:
            throw UploadFailure.serverError(name, detail: "PROPFIND: \(file.relativePath) is not there after PUT")
        }
        return .uploaded
    }

    public func move(from: String, to: String) async throws -> Bool {
        let source = try relativeComponents(from), target = try relativeComponents(to)
        try await makeFolders(Array(target.dropLast()), file: to)
        var request = HTTPClientRequest(url: address(source, folder: false))
        request.method = .MOVE
        request.headers.add(name: "Destination", value: address(target, folder: false))
        request.headers.add(name: "Overwrite", value: "T")
        var status = try await send(request, file: from).status
        if status == 404 { return false }
        if ![201, 204].contains(status) {
            // Some servers (rclone's) answer 403 rather than 404 when the source is gone (a move a
            // crash left done) or the target's folder is: ask which, and make the folders again.
            if try await remoteSize(address(source, folder: false), file: from) == .missing { return false }
            for level in 1...max(1, target.count - 1) { knownFolders.remove(target.prefix(level).joined(separator: "/")) }
            try await makeFolders(Array(target.dropLast()), file: to)
            status = try await send(request, file: from).status
            if status == 404 { return false }
            guard [201, 204].contains(status) else {
                throw UploadFailure.refused(name, file: from, detail: "MOVE: HTTP \(status)")
            }
        }
        await removeEmptyFolders(above: source)
        return true
    }

    public func remove(_ path: String) async throws {
        let parts = try relativeComponents(path)
        var request = HTTPClientRequest(url: address(parts, folder: false))
        request.method = .DELETE
        let status = try await send(request, file: path).status
        if status != 404 { try check(status, file: path, accepting: [200, 204]) }
        await removeEmptyFolders(above: parts)
    }

    /// Removes the folders of `parts` that hold nothing now, deepest first (best effort).
    private func removeEmptyFolders(above parts: [String]) async {
        var levels = Array(parts.dropLast())
        while !levels.isEmpty {
            guard let entries = try? await propfind(levels, depth: 1), entries.count <= 1 else { return }
            var request = HTTPClientRequest(url: address(levels, folder: true))
            request.method = .DELETE
            guard let status = try? await send(request, file: levels.joined(separator: "/")).status, [200, 204].contains(status) else { return }
            knownFolders.remove(levels.joined(separator: "/"))
            levels.removeLast()
        }
    }

    public func list() async throws -> [ListedFile] {
        var found: [ListedFile] = []
        var folders: [[String]] = [[]]
        while let folder = folders.popLast() {
            for entry in try await propfind(folder, depth: 1) where entry.parts.count == folder.count + 1 {
                if entry.isFolder { folders.append(entry.parts) } else {
                    found.append(ListedFile(path: entry.parts.joined(separator: "/"), size: entry.size ?? -1, sha256: nil))
                }
            }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// One answer of a `PROPFIND`: the place below the base, and what it is.
    struct Entry {
        var parts: [String]
        var isFolder: Bool
        var size: Int?
    }

    /// `PROPFIND` on a folder below the base (the folder itself is among the answers).
    private func propfind(_ folder: [String], depth: Int) async throws -> [Entry] {
        let request = Self.propfind(address(folder, folder: true), depth: depth)
        let (status, body) = try await send(request, file: folder.joined(separator: "/"), limit: 64 << 20)
        if status == 404 { return [] }
        try check(status, file: folder.joined(separator: "/"), accepting: [207])
        let text = String(decoding: body, as: UTF8.self)
        let basePath = URL(string: address([], folder: true))?.path ?? "/"
        var entries: [Entry] = []
        for response in text.split(separator: /<(?:[A-Za-z0-9_.-]+:)?response[\s>]/).dropFirst() {
            guard let href = response.firstMatch(of: /<(?:[A-Za-z0-9_.-]+:)?href[^>]*>([^<]*)</) else { continue }
            var path = String(href.1).replacingOccurrences(of: "&amp;", with: "&")
            if let url = URL(string: path), url.host != nil { path = url.path }
            path = path.removingPercentEncoding ?? path
            guard path.hasPrefix(basePath) || path + "/" == basePath else { continue }
            let relative = path.count > basePath.count ? String(path.dropFirst(basePath.count)) : ""
            let parts = relative.split(separator: "/").map { String($0).precomposedStringWithCanonicalMapping }
            let isFolder = response.firstMatch(of: /<([A-Za-z0-9_.-]+:)?collection[\s\/>]/) != nil
            let size = response.firstMatch(of: /<(?:[A-Za-z0-9_.-]+:)?getcontentlength[^>]*>\s*([0-9]+)\s*</).flatMap { Int($0.1) }
            entries.append(Entry(parts: parts, isFolder: isFolder, size: size))
        }
        return entries
    }

    /// Asks the server for the destination folder (`PROPFIND`, depth 0), as uploads would.
    /// - Throws: ``UploadFailure``: the login refused (401/403), the server unreachable or timed
    ///   out, the folder not there (404) or a file where the folder should be.
    func checkFolder(timeout: TimeInterval) async throws(UploadFailure) {
        var request = HTTPClientRequest(url: address([], folder: true))
        request.method = .PROPFIND
        request.headers.add(name: "Depth", value: "0")
        request.headers.add(name: "Content-Type", value: "application/xml; charset=utf-8")
        request.body = .bytes(ByteBuffer(string: """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/></D:prop></D:propfind>
            """))
        let status: Int
        let body: Data
        do {
            (status, body) = try await send(request, file: "", limit: 1 << 20, timeout: timeout)
        } catch let failure as UploadFailure {
            throw failure
        } catch {
            throw UploadFailure.unreachable(name, detail: ConnectionError(error).detail)
        }
        if status == 404 {
            throw UploadFailure(.refused, nb: "Mappen \(base.path) finnes ikke på \(name). Lag den der, eller skriv adressen til en mappe som finnes.",
                                en: "The folder \(base.path) does not exist on \(name). Make it there, or give the address of a folder that exists.")
        }
        guard [207, 200].contains(status) else {
            switch status {
            case 401, 403: throw UploadFailure.login(name, detail: "HTTP \(status)")
            case 507: throw UploadFailure.full(name, detail: "HTTP 507")
            case 408, 425, 429, 500...599: throw UploadFailure.serverError(name, detail: "HTTP \(status)")
            default:
                throw UploadFailure(.refused, nb: "\(name) svarte ikke som en WebDAV-mappe (HTTP \(status)). Sjekk adressen.",
                                    en: "\(name) did not answer as a WebDAV folder (HTTP \(status)). Check the address.")
            }
        }
        let text = String(decoding: body, as: UTF8.self)
        if status == 207, text.firstMatch(of: /<([A-Za-z0-9_.-]+:)?collection[\s\/>]/) == nil,
           text.contains("resourcetype") {
            throw UploadFailure(.refused, nb: "\(base.path) på \(name) er en fil, ikke en mappe. Skriv adressen til en mappe.",
                                en: "\(base.path) on \(name) is a file, not a folder. Give the address of a folder.")
        }
    }

    // MARK: - Requests

    /// The URL of a file (or, with `folder`, a collection) below the base, each part percent-encoded.
    func address(_ parts: [String], folder: Bool) -> String {
        var text = base.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        text += parts.map { $0.precomposedStringWithCanonicalMapping.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? $0 }
            .joined(separator: "/")
        return folder ? text + "/" : text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// What the server says about a file.
    enum RemoteFile: Equatable {
        case missing
        case size(Int)
        /// There, but no `getcontentlength` was given.
        case unknown
    }

    /// A `PROPFIND` asking for the size and kind of what is at `url` (and, with depth 1, below it).
    static func propfind(_ url: String, depth: Int) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = .PROPFIND
        request.headers.add(name: "Depth", value: "\(depth)")
        request.headers.add(name: "Content-Type", value: "application/xml; charset=utf-8")
        request.body = .bytes(ByteBuffer(string: """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:"><D:prop><D:getcontentlength/><D:resourcetype/></D:prop></D:propfind>
            """))
        return request
    }

    /// `PROPFIND` (depth 0) for the size of the file at `url`.
    private func remoteSize(_ url: String, file: String) async throws -> RemoteFile {
        let (status, body) = try await send(Self.propfind(url, depth: 0), file: file, limit: 1 << 20)
        if status == 404 { return .missing }
        try check(status, file: file, accepting: [207, 200])
        let text = String(decoding: body, as: UTF8.self)
        if text.firstMatch(of: /<([A-Za-z0-9_.-]+:)?collection[\s\/>]/) != nil {
            throw UploadFailure.refused(name, file: file, detail: "a folder has this name")
        }
        guard let match = text.firstMatch(of: /<(?:[A-Za-z0-9_.-]+:)?getcontentlength[^>]*>\s*([0-9]+)\s*</),
              let size = Int(match.1) else { return .unknown }
        return .size(size)
    }

    /// The remote file's bytes when it has exactly `expected` of them, else nil.
    private func remoteBytes(_ url: String, file: String, expected: Int) async throws -> Data? {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        let (status, body) = try await send(request, file: file, limit: expected + 1)
        if status == 404 { return nil }
        try check(status, file: file, accepting: [200])
        return body
    }

    /// Makes each missing level of `parts` below the base (`MKCOL`; 405: it exists).
    private func makeFolders(_ parts: [String], file: String) async throws {
        guard !parts.isEmpty else { return }
        for level in 1...parts.count {
            let folder = Array(parts.prefix(level))
            let key = folder.joined(separator: "/")
            if knownFolders.contains(key) { continue }
            var request = HTTPClientRequest(url: address(folder, folder: true))
            request.method = .MKCOL
            let status = try await send(request, file: file).status
            switch status {
            case 201, 200, 204, 405:
                knownFolders.insert(key)
            case 409 where level == 1:
                throw UploadFailure.refused(name, file: file, detail: "MKCOL 409: the folder \(base.absoluteString) does not exist on the server")
            default:
                try check(status, file: file, accepting: [])
            }
        }
    }

    /// Sends a request with the login; the status and the answer's first `limit` bytes (or a little more).
    private func send(_ request: HTTPClientRequest, file: String, limit: Int = 1 << 16,
                      timeout: TimeInterval = 60) async throws -> (status: Int, body: Data) {
        var request = request
        if let authorization { request.headers.replaceOrAdd(name: "Authorization", value: authorization) }
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
            var body = Data()
            for try await chunk in response.body {
                if body.count <= limit { body.append(contentsOf: chunk.readableBytesView) }
            }
            return (Int(response.status.code), body)
        } catch let failure as UploadFailure {
            throw failure
        } catch {
            throw UploadFailure.unreachable(name, detail: ConnectionError(error).detail)
        }
    }

    /// Turns an HTTP status that is not one of `accepting` into the failure the queue acts on.
    private func check(_ status: Int, file: String, accepting: Set<Int>) throws(UploadFailure) {
        if accepting.contains(status) { return }
        let detail = "HTTP \(status)"
        switch status {
        case 401, 403: throw .login(name, detail: detail)
        case 507: throw .full(name, detail: detail)
        case 408, 425, 429, 500...599: throw .serverError(name, detail: detail)
        default: throw .refused(name, file: file, detail: detail)
        }
    }
}
