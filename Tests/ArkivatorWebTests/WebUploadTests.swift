import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
import ArkivatorPipeline
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// Capture: pages sent one by one, checked by their bytes, handed to the inbox whole, then read
/// and filed by the inbox's watcher, with the status followed until the document is there.
@Suite(.serialized) struct WebUploadTests {
    func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test func pagesAreCheckedAndTheUploadReachesTheInboxWhole() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.server.setPassword(WebFixture.password, again: WebFixture.password)
            let page = try Fixtures.bytes("clean.png")
            try await fixture.server.application().test(.router) { client in
                let browser = try await Browser.signIn(client)
                let headers = browser.script
                let form = try await client.execute(uri: "/upload", method: .get, headers: browser.headers)
                // Two controls: the camera, and pictures and files (no `capture`, so the gallery and PDFs stay reachable).
                #expect(form.text.contains(#"id="camera" name="pages" type="file" accept="image/*" capture="environment""#)
                        && form.text.contains(#"id="files" name="pages" type="file" accept="image/*,application/pdf" multiple>"#)
                        && form.text.contains("<script src=\"/static/tray.js\"") && form.text.contains("<script src=\"/static/upload.js\""))
                // The script names the stages with the words the page without script uses.
                #expect(form.text.contains("data-stages=\"{&quot;classified&quot;:&quot;klassifisert&quot;"))
                #expect(try await client.execute(uri: "/static/upload.js", method: .get).headers[.contentType]?
                    .hasPrefix("text/javascript") == true)
                #expect(try await client.execute(uri: "/api/v1/uploads", method: .post, headers: browser.headers).status
                        == .forbidden, "no token")

                let made = try await client.execute(uri: "/api/v1/uploads", method: .post, headers: headers)
                #expect(made.status == .created)
                let id = try #require(try json(made)["id"] as? String)
                let empty = try await client.execute(uri: "/api/v1/uploads/\(id)/done", method: .post, headers: headers)
                #expect(empty.status == .conflict && empty.text.contains("ingen sider"))

                let text = try await client.execute(uri: "/api/v1/uploads/\(id)/pages/1", method: .put, headers: headers,
                                                    body: ByteBuffer(string: "Dette er ikke et bilde, bare tekst i en fil."))
                let textError = try json(text)["error"] as? String
                #expect(text.status == .unsupportedMediaType && textError == "notAnImage")
                let cut = try await client.execute(uri: "/api/v1/uploads/\(id)/pages/1", method: .put, headers: headers,
                                                   body: ByteBuffer(bytes: page.prefix(page.count / 2)))
                let cutError = try json(cut)["error"] as? String
                #expect(cut.status == .unsupportedMediaType && cutError == "truncated")
                let huge = try await client.execute(uri: "/api/v1/uploads/\(id)/pages/2", method: .put, headers: headers,
                                                    body: ByteBuffer(repeating: 0xFF, count: WebServer.pageByteLimit + 1))
                let hugeError = try json(huge)["error"] as? String
                #expect(huge.status == .contentTooLarge && hugeError == "tooLarge")
                // A page is written to disk as it arrives; a refused one leaves nothing behind.
                let staging = fixture.library.location.folder(.uploadStaging).path
                #expect(try FileManager.default.contentsOfDirectory(atPath: staging).allSatisfy { !$0.hasPrefix("samles-") })
                for uri in ["/api/v1/uploads/\(id)/pages/0", "/api/v1/uploads/\(id)/pages/101", "/api/v1/uploads/\(id)/pages/x",
                            "/api/v1/uploads/../pages/1", "/api/v1/uploads/\(String(repeating: "0", count: 32))/pages/1",
                            "/api/v1/uploads/..%2F..%2Fetc/pages/1"] {
                    let refused = try await client.execute(uri: uri, method: .put, headers: headers, body: ByteBuffer(bytes: page))
                    #expect(refused.status == .notFound, "\(uri): \(refused.status)")
                }
                let sent = try await client.execute(uri: "/api/v1/uploads/\(id)/pages/1", method: .put, headers: headers,
                                                    body: ByteBuffer(bytes: page))
                #expect(sent.status == .ok)
                #expect(try json(try await client.execute(uri: "/api/v1/uploads/\(id)", method: .get, headers: headers))["status"]
                        as? String == "open")
                #expect(!FileManager.default.fileExists(atPath: fixture.inbox.appendingPathComponent(id).path), "not before done")

                let done = try await client.execute(uri: "/api/v1/uploads/\(id)/done", method: .post, headers: headers)
                let doneStatus = try json(done)["status"] as? String
                #expect(done.status == .ok && doneStatus == "received")
                let folder = fixture.inbox.appendingPathComponent(id)
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["side-001.png"])
                #expect(try Array(Data(contentsOf: folder.appendingPathComponent("side-001.png"))) == page)
                #expect(try json(try await client.execute(uri: "/api/v1/uploads/\(id)", method: .get, headers: headers))["status"]
                        as? String == "received")
                #expect(try await client.execute(uri: "/api/v1/uploads/\(id)/done", method: .post, headers: headers).status
                        == .notFound, "handed over once")
            }
        }
    }

    @Test func withoutAnInboxUploadingIsOff() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir, uploads: false)
            try await fixture.signedIn { client, browser in
                let answer = try await client.execute(uri: "/api/v1/uploads", method: .post, headers: browser.script)
                #expect(answer.status == .serviceUnavailable)
            }
        }
    }

    @Test func anUploadedLetterIsReadFiledAndFollowed() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.server.setPassword(WebFixture.password, again: WebFixture.password)
            let library = fixture.library, root = fixture.library.defaultArchiveRoot
            let watcher = try Watcher(library: library, options: .init(folder: fixture.inbox, settle: 0.2, onSuccess: .move),
                                      makePipeline: {
                try Pipeline(options: .init(jobs: 1, classifier: Classifier(), archive: ArchiveOptions(root: root, library: library)))
            }, report: { _ in })
            let finished = DispatchSemaphore(value: 0)
            let thread = Thread {
                _ = try? watcher.run()
                finished.signal()
            }
            thread.start()
            defer {
                watcher.stop()
                finished.wait()
            }
            let page = try Fixtures.bytes("clean.png")
            try await fixture.server.application().test(.router) { client in
                let browser = try await Browser.signIn(client)
                let headers = browser.script
                let id = try #require(try json(try await client.execute(uri: "/api/v1/uploads", method: .post, headers: headers))["id"]
                    as? String)
                _ = try await client.execute(uri: "/api/v1/uploads/\(id)/pages/1", method: .put, headers: headers, body: ByteBuffer(bytes: page))
                _ = try await client.execute(uri: "/api/v1/uploads/\(id)/done", method: .post, headers: headers)
                var status: [String: Any] = [:]
                // Up to two minutes: the page is read by real OCR, perhaps beside other busy tests.
                for _ in 0..<480 {
                    status = try json(try await client.execute(uri: "/api/v1/uploads/\(id)", method: .get, headers: headers))
                    if ["done", "duplicate", "failed"].contains(status["status"] as? String ?? "") { break }
                    try await Task.sleep(nanoseconds: 250_000_000)
                }
                #expect(status["status"] as? String == "done", "\(status)")
                let document = try #require(status["document"] as? String)
                let shown = try await client.execute(uri: "/documents/\(document)", method: .get, headers: browser.headers)
                #expect(shown.status == .ok && shown.text.contains("Henvisning") && shown.text.contains("føflekk"))
                #expect(try json(try await client.execute(uri: "/api/v1/documents", method: .get, headers: browser.headers))["total"]
                        as? Int == 3)
            }
        }
    }
}
