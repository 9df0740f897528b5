import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// The household page (the number masked, shown only after the password) and settings.
@Suite struct WebFamilySettingsTests {
    func form(_ browser: Browser) -> HTTPFields {
        var headers = browser.headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        return headers
    }

    @Test func theNumberIsShownOnlyAfterThePassword() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try fixture.server.setPassword(WebFixture.password, again: WebFixture.password)
            try await fixture.server.application().test(.router) { client in
                let browser = try await Browser.signIn(client)
                let added = try await client.execute(uri: "/family/add", method: .post, headers: form(browser),
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)&name=Ingrid+Haugseth&fnr=\(WebFixture.number)"))
                #expect(added.status == .seeOther)
                let page = try await client.execute(uri: "/family", method: .get, headers: browser.headers)
                #expect(page.text.contains("Ingrid Haugseth") && page.text.contains("170972 •••••"))
                #expect(!page.text.contains(WebFixture.number))
                let bad = try await client.execute(uri: "/family/add", method: .post, headers: form(browser),
                                                   body: ByteBuffer(string: "_csrf=\(browser.csrf)&name=Per+Feil&fnr=17097243850"))
                #expect(bad.status == .badRequest && bad.text.contains("class=\"problem\""))
                let members = try FamilyStore.open(library: fixture.library.location).list()
                let id = try #require(members.first { $0.name == "Ingrid Haugseth" }?.id)
                let wrong = try await client.execute(uri: "/family/\(id)/reveal", method: .post, headers: form(browser),
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)&password=gjetning"))
                #expect(wrong.status == .unauthorized && !wrong.text.contains(WebFixture.number))
                let shown = try await client.execute(uri: "/family/\(id)/reveal", method: .post, headers: form(browser),
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)&password=riktig+hest+batteri"))
                #expect(shown.status == .ok && shown.text.contains(WebFixture.number) && shown.headers[.cacheControl] == "no-store")
                let removed = try await client.execute(uri: "/family/\(id)/remove", method: .post, headers: form(browser),
                                                       body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(removed.status == .seeOther)
                #expect(try FamilyStore.open(library: fixture.library.location).list().allSatisfy { $0.id != id })
                #expect(try await client.execute(uri: "/family/\(id)/remove", method: .post, headers: form(browser),
                                                 body: ByteBuffer(string: "_csrf=\(browser.csrf)")).status == .notFound)
            }
        }
    }

    @Test func settingsSetTheDestinationTheModelAndGiveABackup() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try fixture.server.setPassword(WebFixture.password, again: WebFixture.password)
            try await fixture.server.application().test(.router) { client in
                let browser = try await Browser.signIn(client)
                let target = dir.appendingPathComponent("kopi").path
                let set = try await client.execute(uri: "/settings/destination", method: .post, headers: form(browser),
                                                   body: ByteBuffer(string: "_csrf=\(browser.csrf)&destination=folder:\(target)"))
                #expect(set.status == .seeOther)
                #expect(try fixture.library.setting(.destination) == "folder:\(target)")
                let bad = try await client.execute(uri: "/settings/destination", method: .post, headers: form(browser),
                                                   body: ByteBuffer(string: "_csrf=\(browser.csrf)&destination=ftp:eksempel"))
                #expect(bad.status == .badRequest && bad.text.contains("class=\"problem\""))
                try fixture.library.setSetting(.llmURL, "https://modell.example.com")
                _ = try await client.execute(uri: "/settings/llm", method: .post, headers: form(browser),
                                             body: ByteBuffer(string: "_csrf=\(browser.csrf)&enabled=true"))
                #expect(try fixture.library.isOn(.llmEnabled))
                let page = try await client.execute(uri: "/settings", method: .get, headers: browser.headers)
                #expect(page.text.contains("checked") && page.text.contains("annen maskin"))
                let backup = try await client.execute(uri: "/settings/backup", method: .get, headers: browser.headers)
                #expect(backup.status == .ok && Array(Data(buffer: backup.body).prefix(15)) == Array("SQLite format 3".utf8))
            }
        }
    }
}
