@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// Capture's hand-over: the order and the grouping the sender asks for are checked against the
/// pages that arrived and then kept (the inbox gets each letter's pages in that order), over
/// real HTTP in process; and the upload form without script, streamed as `multipart/form-data`.
@Suite(.serialized) struct WebCaptureTests {
    static let images = ["clean.png", "photo.jpg", "photo2.jpg"]

    func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    /// The page files of a letter in the inbox, in name order, as bytes.
    func letter(_ fixture: WebFixture, _ id: String) throws -> [[UInt8]] {
        let folder = fixture.inbox.appendingPathComponent(id)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .map { Array(try Data(contentsOf: folder.appendingPathComponent($0))) }
    }

    @Test func theAppInstallsWithIconsAServiceWorkerAndAShareTarget() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, browser in
                let manifest = try await client.execute(uri: "/manifest.webmanifest", method: .get)
                #expect(manifest.status == .ok && manifest.headers[.contentType] == "application/manifest+json")
                let app = try json(manifest)
                #expect(app["start_url"] as? String == "/" && app["display"] as? String == "standalone")
                let icons = try #require(app["icons"] as? [[String: String]])
                for icon in icons {
                    let image = try await client.execute(uri: try #require(icon["src"]), method: .get)
                    #expect(image.status == .ok && image.headers[.contentType] == "image/png" && Array(image.body.readableBytesView.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
                }
                let share = try #require(app["share_target"] as? [String: Any])
                #expect(share["action"] as? String == "/del-til-arkivator" && share["method"] as? String == "POST")
                let worker = try await client.execute(uri: "/sw.js", method: .get)
                #expect(worker.status == .ok && worker.headers[.contentType]?.hasPrefix("text/javascript") == true)
                #expect(worker.text.contains("/del-til-arkivator"), "a new worker is fetched each time (no-store)")
                #expect(try await client.execute(uri: "/favicon.ico", method: .get).status == .ok, "no favicon asked for in vain")
                let page = try await client.execute(uri: "/upload", method: .get, headers: browser.headers)
                #expect(page.text.contains("<link rel=\"manifest\" href=\"/manifest.webmanifest\">") && page.text.contains("/static/keep.js"))
                // Before the service worker runs, a share lands on the capture page, which says what to do.
                let early = try await client.execute(uri: "/del-til-arkivator", method: .post, headers: [.contentType: "multipart/form-data; boundary=x"],
                                                     body: ByteBuffer(string: "--x--\r\n"))
                #expect(early.status == .seeOther && early.headers[.location] == "/upload?delt=0")
                let said = try await client.execute(uri: "/upload?delt=0", method: .get, headers: browser.headers)
                #expect(said.text.contains("Delingen kom ikke fram"))
            }
        }
    }

    @Test func theHandOverKeepsTheAskedOrderAndGrouping() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let pages = try Self.images.map { try Fixtures.bytes($0) }
            try await fixture.signedIn { client, browser in
                let headers = browser.script
                func upload() async throws -> String {
                    let id = try #require(try json(try await client.execute(uri: "/api/v1/uploads", method: .post, headers: headers))["id"]
                        as? String)
                    for (index, page) in pages.enumerated() {
                        let sent = try await client.execute(uri: "/api/v1/uploads/\(id)/pages/\(index + 1)", method: .put, headers: headers,
                                                            body: ByteBuffer(bytes: page))
                        #expect(sent.status == .ok)
                    }
                    return id
                }
                func done(_ id: String, _ body: String) async throws -> TestResponse {
                    try await client.execute(uri: "/api/v1/uploads/\(id)/done", method: .post, headers: headers, body: ByteBuffer(string: body))
                }

                // Refused without touching the upload: a grouping not offered, an order that is not the pages sent.
                let id = try await upload()
                for (body, status, code) in [(#"{"grouping": "both"}"#, HTTPResponse.Status.badRequest, "badRequest"),
                                             (#"{"order": null}"#, .badRequest, "badRequest"),
                                             ("ikke json", .badRequest, "badRequest"),
                                             (#"{"order": [1, 1, 2]}"#, .conflict, "badOrder"),
                                             (#"{"order": [1, 2]}"#, .conflict, "badOrder"),
                                             (#"{"grouping": "one", "order": [1, 2, 3, 4]}"#, .conflict, "badOrder"),
                                             (#"{"order": [3, 2, 9]}"#, .conflict, "badOrder")] {
                    let refused = try await done(id, body)
                    #expect(try refused.status == status && (json(refused)["error"] as? String) == code, "\(body): \(refused.status)")
                }
                #expect(try json(try await client.execute(uri: "/api/v1/uploads/\(id)", method: .get, headers: headers))["status"]
                        as? String == "open")

                // One letter in the order asked: the third page first.
                let one = try await done(id, #"{"grouping": "one", "order": [3, 1, 2]}"#)
                #expect(try one.status == .ok && (json(one)["letters"] as? [String]) == [id])
                #expect(try letter(fixture, id) == [pages[2], pages[0], pages[1]])
                #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.inbox.appendingPathComponent(id).path).sorted()
                        .map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent } == ["side-001", "side-002", "side-003"])

                // Each its own letter, in the order asked, the upload's own id first.
                let each = try await upload()
                let answer = try await done(each, #"{"grouping": "each", "order": [2, 3, 1]}"#)
                let letters = try #require(try json(answer)["letters"] as? [String])
                #expect(answer.status == .ok && letters.count == 3 && letters[0] == each && Set(letters).count == 3)
                #expect(try letters.map { try letter(fixture, $0) } == [[pages[1]], [pages[2]], [pages[0]]])
                for id in letters {
                    #expect(try json(try await client.execute(uri: "/api/v1/uploads/\(id)", method: .get, headers: headers))["status"]
                            as? String == "received")
                }
                // Nothing left behind in the waiting room.
                let staging = fixture.inbox.deletingLastPathComponent().appendingPathComponent(".opplasting")
                #expect(try FileManager.default.contentsOfDirectory(atPath: staging.path).isEmpty)

                // No body: one letter in the numbers' order, as before.
                let plain = try await upload()
                #expect(try await done(plain, "").status == .ok)
                #expect(try letter(fixture, plain) == pages)
            }
        }
    }

    @Test func lettersLeftHalfGatheredAreRemovedWithAbandonedUploads() throws {
        try withTemporaryDirectory { dir in
            let inbox = UploadInbox(inbox: dir.appendingPathComponent("Innboks"))
            let id = try inbox.create()
            let half = inbox.staging.appendingPathComponent("samles-" + String(repeating: "a", count: 32))
            try FileManager.default.createDirectory(at: half, withIntermediateDirectories: true)
            inbox.removeAbandoned(now: Date())
            #expect(inbox.openFolder(id) != nil && FileManager.default.fileExists(atPath: half.path), "not before a day has passed")
            inbox.removeAbandoned(now: Date().addingTimeInterval(UploadInbox.abandonedAfter + 60))
            #expect(inbox.openFolder(id) == nil && !FileManager.default.fileExists(atPath: half.path))
        }
    }

    /// A `multipart/form-data` body as a browser sends the upload form.
    static func form(_ parts: [(name: String, filename: String?, bytes: [UInt8])], boundary: String) -> [UInt8] {
        var body: [UInt8] = []
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { head += "; filename=\"\(filename)\"\r\nContent-Type: application/octet-stream" }
            body += Array((head + "\r\n\r\n").utf8) + part.bytes + Array("\r\n".utf8)
        }
        return body + Array("--\(boundary)--\r\n".utf8)
    }

    @Test func theFormWithoutScriptUploadsInTheChosenOrder() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let pages = try Self.images.map { try Fixtures.bytes($0) }
            try await fixture.signedIn { client, browser in
                let boundary = "----arkivator=grense"
                let quoted = "multipart/form-data; boundary=\"----arkivator=grense\""
                var headers = browser.headers
                headers[.contentType] = quoted
                func post(_ parts: [(name: String, filename: String?, bytes: [UInt8])]) async throws -> TestResponse {
                    try await client.execute(uri: "/upload", method: .post, headers: headers,
                                             body: ByteBuffer(bytes: Self.form(parts, boundary: boundary)))
                }
                let csrf = ("_csrf", String?.none, Array(browser.csrf.utf8))
                let staging = fixture.inbox.deletingLastPathComponent().appendingPathComponent(".opplasting")
                func waiting() -> Int { ((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []).count }

                // Without the session's token, or with it after a file, nothing is kept.
                #expect(try await post([("pages", "a.png", pages[0])]).status == .forbidden)
                #expect(try await post([("_csrf", nil, Array("feil".utf8)), ("pages", "a.png", pages[0])]).status == .forbidden)
                #expect(try await post([("pages", "a.png", pages[0]), csrf]).status == .forbidden)
                #expect(try await post([csrf, ("pages", "a.png", pages[0]), ("grouping", nil, Array("begge".utf8))]).status == .badRequest)
                #expect(try await post([csrf, ("pages", "", []), ("grouping", nil, Array("one".utf8))]).status == .badRequest, "no file chosen")
                let notImage = try await post([csrf, ("pages", "a.txt", Array("bare tekst, ikke et bilde".utf8))])
                #expect(notImage.status == .unsupportedMediaType && notImage.text.contains("<html"))
                var cut = Self.form([csrf, ("pages", "a.png", pages[0])], boundary: boundary)
                cut.removeLast(20)
                let cutOff = try await client.execute(uri: "/upload", method: .post, headers: headers, body: ByteBuffer(bytes: cut))
                #expect(cutOff.status == .badRequest)
                #expect(waiting() == 0 && ((try? FileManager.default.contentsOfDirectory(atPath: fixture.inbox.path)) ?? []).isEmpty)

                // The camera's empty field, then three files, one letter: the pages in the order sent.
                let sent = try await post([csrf, ("pages", "", []), ("pages", "c.jpg", pages[2]), ("pages", "a.png", pages[0]),
                                           ("pages", "b.jpg", pages[1]), ("grouping", nil, Array("one".utf8))])
                #expect(sent.status == .seeOther)
                let location = try #require(sent.headers[.location])
                let id = String(try #require(location.split(separator: "=").last))
                #expect(location == "/upload?mottatt=\(id)" && UploadInbox.isUploadID(id))
                #expect(try letter(fixture, id) == [pages[2], pages[0], pages[1]])

                // Each its own letter: the page says what became of each.
                let each = try await post([csrf, ("pages", "a.png", pages[0]), ("pages", "b.jpg", pages[1]), ("grouping", nil, Array("each".utf8))])
                let ids = try #require(each.headers[.location]?.split(separator: "=").last).split(separator: ",").map(String.init)
                #expect(try ids.count == 2 && ids.map { try letter(fixture, $0) } == [[pages[0]], [pages[1]]])
                let shown = try await client.execute(uri: "/upload?mottatt=\(ids.joined(separator: ","))", method: .get, headers: browser.headers)
                #expect(shown.status == .ok && shown.text.contains("Mottatt")
                        && shown.text.components(separatedBy: ">mottatt, leses snart<").count == 3)
                #expect(waiting() == 0)
            }
        }
    }

    @Test func theFormIsReadAcrossAnyChunking() async throws {
        let boundary = "grense"
        let file = (0..<3000).map { UInt8(truncatingIfNeeded: $0 * 7) } + Array("\r\n--grens".utf8) + [13, 10]
        let body = Self.form([("_csrf", nil, Array("token".utf8)), ("pages", "x.jpg", file), ("grouping", nil, Array("each".utf8))],
                             boundary: boundary)
        for size in [1, 2, 7, 64, 1000, body.count] {
            let chunks = stride(from: 0, to: body.count, by: size).map { ByteBuffer(bytes: body[$0..<min($0 + size, body.count)]) }
            let stream = AsyncStream<ByteBuffer> { continuation in
                for chunk in chunks { continuation.yield(chunk) }
                continuation.finish()
            }
            var parts: [MultipartForm.Part] = []
            try await MultipartForm(boundary: boundary, fileLimit: 1 << 20, partLimit: 10).read(RequestBody(asyncSequence: stream)) {
                parts.append($0)
            }
            #expect(parts.map(\.name) == ["_csrf", "pages", "grouping"] && parts[1].filename == "x.jpg" && parts[1].bytes == file
                    && parts[2].bytes == Array("each".utf8) && parts[0].filename == nil, "chunks of \(size)")
        }
        #expect(MultipartForm.boundary(of: "multipart/form-data; boundary=abc") == "abc")
        #expect(MultipartForm.boundary(of: "application/x-www-form-urlencoded") == nil)
        await #expect(throws: WebError.self) {
            try await MultipartForm(boundary: boundary, fileLimit: 100, partLimit: 10)
                .read(RequestBody(buffer: ByteBuffer(bytes: body))) { _ in }
        }
    }
}
