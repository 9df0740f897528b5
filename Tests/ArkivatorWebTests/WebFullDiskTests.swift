import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// Failures named by their true cause, with their status and plain words: a form past the size
/// a form may have (413), a full disk (507), an upload waiting to be tried again (not «failed»).
@Suite(.serialized) struct WebFullDiskTests {
    func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test func aFormOverOneMegabyteIsRefusedWith413AndWords() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, browser in
                let long = String(repeating: "x", count: (1 << 20) + 10)
                for uri in ["/settings/tokens", "/documents/aaaaaaaa/edit", "/family/add"] {
                    let answer = try await client.execute(uri: uri, method: .post, headers: browser.form,
                                                          body: ByteBuffer(string: "_csrf=\(browser.csrf)&name=\(long)"))
                    #expect(answer.status == .contentTooLarge, "\(uri): \(answer.status)")
                    #expect(answer.text.contains("for stort til å tas imot"), "\(uri)")
                }
                let api = try await client.execute(uri: "/api/v1/documents/aaaaaaaa", method: .patch, headers: browser.script,
                                                   body: ByteBuffer(string: "{\"title\": \"\(long)\"}"))
                #expect(api.status == .contentTooLarge)
                #expect(try json(api)["error"] as? String == "tooLarge")
            }
        }
    }

    /// A page sent to a server whose disk is full: 507 with what to do, the upload still open so the
    /// page can be sent again once there is room.
    @Test(.enabled(if: SmallDisk.available, "needs root and a working mount (tmpfs)"))
    func aPageSentToAFullDiskIsAnswered507() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let staging = fixture.inbox.deletingLastPathComponent().appendingPathComponent(".opplasting")
            try #require(SmallDisk.mount(kilobytes: 128, at: staging))
            defer { SmallDisk.unmount(staging) }
            let page = try Fixtures.bytes("clean.png")
            try await fixture.signedIn { client, browser in
                let id = try #require(try json(try await client.execute(uri: "/api/v1/uploads", method: .post, headers: browser.script))["id"]
                    as? String)
                SmallDisk.fill(staging)
                let full = try await client.execute(uri: "/api/v1/uploads/\(id)/pages/1", method: .put, headers: browser.script,
                                                    body: ByteBuffer(bytes: page))
                #expect(full.status.code == 507, "\(full.status)")
                let answer = try json(full)
                #expect(answer["error"] as? String == "diskFull")
                let message = try #require(answer["message"] as? String)
                #expect(message.contains("er full") && message.contains("Frigjør plass"), "\(message)")
                #expect(!message.contains(dir.path) && !message.contains("arkivator "), "no server path, no command: \(message)")
                try FileManager.default.removeItem(at: staging.appendingPathComponent("filler"))
                let again = try await client.execute(uri: "/api/v1/uploads/\(id)/pages/1", method: .put, headers: browser.script,
                                                     body: ByteBuffer(bytes: page))
                #expect(again.status == .ok, "sent again once there is room")
            }
        }
    }

    /// The watcher could not file an upload for a passing cause (a full disk) and tries again: its
    /// status waits, with the reason, and is not «failed»; one failed for good is.
    @Test func anUploadThatIsTriedAgainWaitsAndIsNotFailed() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let page = try Fixtures.bytes("clean.png")
            try await fixture.signedIn { client, browser in
                var ids: [String] = []
                for _ in 0..<2 {
                    let id = try #require(try json(try await client.execute(uri: "/api/v1/uploads", method: .post, headers: browser.script))["id"]
                        as? String)
                    _ = try await client.execute(uri: "/api/v1/uploads/\(id)/pages/1", method: .put, headers: browser.script,
                                                 body: ByteBuffer(bytes: page))
                    _ = try await client.execute(uri: "/api/v1/uploads/\(id)/done", method: .post, headers: browser.script)
                    ids.append(id)
                }
                let full = DocumentFailure(stage: .write, code: "diskFull",
                                           message: UserMessage(nb: "Disken er full.", en: "The disk is full."))
                for (index, id) in ids.enumerated() {
                    let sha = String(repeating: index == 0 ? "c3" : "d4", count: 32)
                    try fixture.library.journal.receive(sha256: sha, source: fixture.inbox.appendingPathComponent(id).path)
                    try fixture.library.journal.fail(sha256: sha, failure: full, retryAt: index == 0 ? Date().addingTimeInterval(600) : nil)
                }
                let waiting = try json(try await client.execute(uri: "/api/v1/uploads/\(ids[0])", method: .get, headers: browser.script))
                #expect(waiting["status"] as? String == "waiting")
                #expect((waiting["message"] as? String)?.contains("Disken er full") == true)
                let failed = try json(try await client.execute(uri: "/api/v1/uploads/\(ids[1])", method: .get, headers: browser.script))
                #expect(failed["status"] as? String == "failed")
                let shown = try await client.execute(uri: "/upload?mottatt=\(ids[0])", method: .get, headers: browser.headers)
                #expect(shown.text.contains("<li><span class=\"\">venter, prøves igjen om litt</span> – Disken er full."),
                        "the page without script says it waits, not as a problem")
            }
        }
    }
}
