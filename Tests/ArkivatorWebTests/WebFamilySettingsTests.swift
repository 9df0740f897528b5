import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
import ArkivatorSync
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// The household page (the number masked, shown only after the password) and settings.
@Suite struct WebFamilySettingsTests {
    @Test func theNumberIsShownOnlyAfterThePassword() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, browser in
                let added = try await client.execute(uri: "/family/add", method: .post, headers: browser.form,
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)&name=Ingrid+Haugseth&fnr=\(WebFixture.number)"))
                #expect(added.status == .seeOther)
                let page = try await client.execute(uri: "/family", method: .get, headers: browser.headers)
                #expect(page.text.contains("Ingrid Haugseth") && page.text.contains("170972 •••••"))
                #expect(!page.text.contains(WebFixture.number))
                let bad = try await client.execute(uri: "/family/add", method: .post, headers: browser.form,
                                                   body: ByteBuffer(string: "_csrf=\(browser.csrf)&name=Per+Feil&fnr=17097243850"))
                #expect(bad.status == .badRequest && bad.text.contains("class=\"problem\"") && bad.text.contains("value=\"Per Feil\""),
                        "refused, with what was typed kept")
                let twice = try await client.execute(uri: "/family/add", method: .post, headers: browser.form,
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)&name=Ingrid+Haugseth"))
                #expect(twice.status == .conflict && twice.text.contains("finnes allerede") && !twice.text.contains("arkivator family"),
                        "a name taken is told without a command")
                let members = try FamilyStore.open(library: fixture.library.location).list()
                let id = try #require(members.first { $0.name == "Ingrid Haugseth" }?.id)
                let wrong = try await client.execute(uri: "/family/\(id)/reveal", method: .post, headers: browser.form,
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)&password=gjetning"))
                #expect(wrong.status == .unauthorized && !wrong.text.contains(WebFixture.number))
                let shown = try await client.execute(uri: "/family/\(id)/reveal", method: .post, headers: browser.form,
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)&password=riktig+hest+batteri"))
                #expect(shown.status == .ok && shown.text.contains(WebFixture.number) && shown.headers[.cacheControl] == "no-store")
                let removed = try await client.execute(uri: "/family/\(id)/remove", method: .post, headers: browser.form,
                                                       body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(removed.status == .seeOther)
                #expect(try FamilyStore.open(library: fixture.library.location).list().allSatisfy { $0.id != id })
                #expect(try await client.execute(uri: "/family/\(id)/remove", method: .post, headers: browser.form,
                                                 body: ByteBuffer(string: "_csrf=\(browser.csrf)")).status == .notFound)
                // «Angre» brings the member back as it was: the same id, the number still there.
                let notice = try await client.execute(uri: try #require(removed.headers[.location]), method: .get, headers: browser.headers)
                let marker = "name=\"token\" value=\""
                let start = try #require(notice.text.range(of: marker)).upperBound
                let token = String(notice.text[start...].prefix { $0 != "\"" })
                #expect(notice.text.contains("Fjernet") && notice.text.contains("Angre") && !token.isEmpty)
                let undone = try await client.execute(uri: "/family/restore", method: .post, headers: browser.form,
                                                      body: ByteBuffer(string: "_csrf=\(browser.csrf)&token=\(token)"))
                #expect(undone.status == .seeOther)
                let back = try #require(try FamilyStore.open(library: fixture.library.location).list().first { $0.id == id })
                #expect(back.maskedFnr != nil)
                #expect(try await client.execute(uri: "/family/restore", method: .post, headers: browser.form,
                                                 body: ByteBuffer(string: "_csrf=\(browser.csrf)&token=\(token)")).status == .gone,
                        "an undo works once")
                // A new member never gets an id that was used before.
                _ = try await client.execute(uri: "/family/\(id)/remove", method: .post, headers: browser.form,
                                             body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                let another = try await client.execute(uri: "/family/add", method: .post, headers: browser.form,
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)&name=Nina+Nordmann"))
                #expect(another.status == .seeOther)
                #expect(try FamilyStore.open(library: fixture.library.location).list().first { $0.name == "Nina Nordmann" }?.id != id)
            }
        }
    }

    @Test func settingsSetTheDestinationTheModelAndGiveABackup() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, browser in
                let target = dir.appendingPathComponent("kopi").path
                let missing = try await client.execute(uri: "/settings/destination", method: .post, headers: browser.form,
                                                       body: ByteBuffer(string: "_csrf=\(browser.csrf)&kind=folder&folder=\(target)"))
                #expect(missing.status == .badRequest && missing.text.contains("finnes ikke") && !missing.text.contains("arkivator config"),
                        "a folder that is not there is refused with a sentence")
                #expect(try fixture.library.setting(.destination) == nil)
                try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
                let set = try await client.execute(uri: "/settings/destination", method: .post, headers: browser.form,
                                                   body: ByteBuffer(string: "_csrf=\(browser.csrf)&kind=folder&folder=\(target)"))
                #expect(set.status == .seeOther && set.headers[.location]?.contains("lagret=") == true)
                #expect(try fixture.library.setting(.destination) == "folder:\(target)")
                let bad = try await client.execute(uri: "/settings/destination", method: .post, headers: browser.form,
                                                   body: ByteBuffer(string: "_csrf=\(browser.csrf)&kind=webdav&webdav=ftp://eksempel"))
                #expect(bad.status == .badRequest && bad.text.contains("class=\"problem\"") && bad.text.contains("ftp://eksempel"),
                        "refused, with what was typed kept")
                let saved = try await client.execute(uri: "/settings?lagret=1", method: .get, headers: browser.headers)
                #expect(saved.text.contains("Lagret."))
                let unset = try await client.execute(uri: "/settings/llm", method: .post, headers: browser.form,
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)&enabled=true"))
                #expect(try unset.status == .badRequest && !fixture.library.isOn(.llmEnabled), "no model set up: not turned on")
                _ = try await client.execute(uri: "/settings/llm", method: .post, headers: browser.form,
                                             body: ByteBuffer(string: "_csrf=\(browser.csrf)&url=https%3A%2F%2Fmodell.example.com&allowRemote=true&enabled=true"))
                #expect(try fixture.library.isOn(.llmEnabled))
                let page = try await client.execute(uri: "/settings", method: .get, headers: browser.headers)
                #expect(page.text.contains("checked") && page.text.contains("annen maskin"))
                let backup = try await client.execute(uri: "/settings/backup", method: .get, headers: browser.headers)
                #expect(backup.status == .ok && Array(Data(buffer: backup.body).prefix(15)) == Array("SQLite format 3".utf8))
            }
        }
    }

    /// Letters filed before a destination is set reach it, with the progress in words; «Sjekk
    /// kopien» finds a file gone from the destination, «Rett opp kopien» brings it back, and a
    /// file that is not Arkivator's is counted and left alone.
    @Test func settingsCopyTheWholeArchiveThenCheckAndRepairIt() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let uploads = fixture.server.household.uploads
            try await fixture.signedIn { client, browser in
                let target = dir.appendingPathComponent("kopi", isDirectory: true)
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
                let set = try await client.execute(uri: "/settings/destination", method: .post, headers: browser.form,
                                                   body: ByteBuffer(string: "_csrf=\(browser.csrf)&kind=folder&folder=\(target.path)"))
                let saved = try await client.execute(uri: try #require(set.headers[.location]), method: .get, headers: browser.headers)
                #expect(saved.text.contains("Hele arkivet (2 brev) kopieres nå til") && saved.text.contains("0 av 2 brev er kopiert")
                        && saved.text.contains("<progress max=\"2\" value=\"0\""), "the whole archive is on its way, with progress")
                #expect(!saved.text.contains("Alt er lastet opp"))
                let letter = ShortID.of(String(repeating: "a1", count: 32))
                let waiting = try await client.execute(uri: "/documents/\(letter)", method: .get, headers: browser.headers)
                #expect(waiting.text.contains("<dd>Venter på å bli kopiert</dd>"))

                // The background loop's work, done here at once.
                _ = await uploads.worker.runDueJobs()
                let done = try await client.execute(uri: "/settings", method: .get, headers: browser.headers)
                #expect(done.text.contains("Alle 2 brev er kopiert til") && !done.text.contains("<progress"), "all copied")
                let copied = try await client.execute(uri: "/documents/\(letter)", method: .get, headers: browser.headers)
                #expect(copied.text.contains("<dd>Kopiert</dd>") && !copied.text.lowercased().contains("ingen kopi satt opp"))
                let list = try await client.execute(uri: "/", method: .get, headers: browser.headers)
                #expect(list.text.contains("Kopiert") && !list.text.contains("Venter på å bli kopiert"))

                // A file of the first letter gone from the destination, and one that is not Arkivator's.
                let files = FileManager.default.enumerator(at: target, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
                let lost = try #require(files.first { $0.lastPathComponent == "2024-03-15 Innkalling Ortopedisk poliklinikk.docx" })
                try FileManager.default.removeItem(at: lost)
                let stranger = target.appendingPathComponent("handleliste.txt")
                try Data("melk, brød".utf8).write(to: stranger)
                let check = try await client.execute(uri: "/settings/copy/check", method: .post, headers: browser.form,
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(check.status == .ok)
                #expect(check.text.contains("er ikke lik arkivet") && check.text.contains("Mangler: <strong>1</strong>")
                        && check.text.contains("Utdatert: <strong>0</strong>")
                        && check.text.contains("Ikke Arkivators (blir aldri rørt): <strong>1</strong>")
                        && check.text.contains("latt i fred") && check.text.contains("handleliste.txt"), "the difference, counted")
                #expect(check.text.contains("action=\"/settings/copy/repair\"") && check.text.contains("Rett opp kopien"))
                #expect(!check.text.contains("arkivator sync"), "no command for a web user")

                let repair = try await client.execute(uri: "/settings/copy/repair", method: .post, headers: browser.form,
                                                      body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(repair.status == .seeOther && repair.headers[.location] == "/settings?rettet=1#upload")
                let repairing = try await client.execute(uri: "/settings?rettet=1", method: .get, headers: browser.headers)
                #expect(repairing.text.contains("Kopien rettes opp: 1 brev kopieres på nytt") && repairing.text.contains("1 av 2 brev er kopiert"),
                        "the repair under way, with progress")
                _ = await uploads.worker.runDueJobs()
                let again = try await client.execute(uri: "/settings/copy/check", method: .post, headers: browser.form,
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(again.text.contains("har alle 2 brev slik arkivet har dem") && again.text.contains("Mangler: <strong>0</strong>")
                        && !again.text.contains("action=\"/settings/copy/repair\""), "in line: nothing to repair")
                #expect(FileManager.default.fileExists(atPath: lost.path) && FileManager.default.fileExists(atPath: stranger.path))
                let inLine = try await client.execute(uri: "/settings/copy/repair", method: .post, headers: browser.form,
                                                      body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(inLine.headers[.location] == "/settings?rettet=lik#upload")

                // No destination: nothing to check, said in words.
                _ = try await client.execute(uri: "/settings/destination", method: .post, headers: browser.form,
                                             body: ByteBuffer(string: "_csrf=\(browser.csrf)&kind=off"))
                let none = try await client.execute(uri: "/settings/copy/check", method: .post, headers: browser.form,
                                                    body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(none.status == .badRequest && none.text.contains("Ingen kopi er satt opp"))
            }
        }
    }
}

/// Device tokens: made in Settings, shown once, stored hashed, good for the API only, revocable.
@Suite struct WebTokenTests {
    @Test func aDeviceTokenOpensTheAPIUntilItIsRevoked() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, browser in
                let headers = browser.form
                let made = try await client.execute(uri: "/settings/tokens", method: .post, headers: headers,
                                                    body: ByteBuffer(string: "_csrf=\(browser.csrf)&name=Karis+mobil"))
                let start = try #require(made.text.range(of: "<code id=\"new-token\">")).upperBound
                let token = String(made.text[start...].prefix { $0 != "<" })
                #expect(token.hasPrefix("ark_") && made.text.contains("Karis mobil"))
                let bearer: HTTPFields = [.authorization: "Bearer \(token)"]
                let listed = try await client.execute(uri: "/api/v1/documents", method: .get, headers: bearer)
                #expect(listed.status == .ok && listed.text.contains("\"total\":2"))
                #expect(try await client.execute(uri: "/api/v1/uploads", method: .post, headers: bearer).status == .created,
                        "a token needs no CSRF token: it is no cookie")
                #expect(try await client.execute(uri: "/", method: .get, headers: bearer).status == .seeOther, "pages need a session")
                for wrong in ["Bearer ark_feil", "Bearer ", "Basic YWJjOmRlZg==", "Bearer \(token)x"] {
                    let refused = try await client.execute(uri: "/api/v1/documents", method: .get, headers: [.authorization: wrong])
                    #expect(refused.status == .unauthorized && refused.headers[.contentType]?.hasPrefix("application/json") == true
                            && refused.headers[.wwwAuthenticate] == "Bearer", "\(wrong)")
                }
                #expect(try await client.execute(uri: "/api/v1/documents", method: .get, headers: [.authorization: "bearer \(token)"]).status
                        == .ok, "the scheme in any case")
                let stored = try Data(contentsOf: fixture.library.databaseURL)
                #expect(stored.range(of: Data(token.utf8)) == nil, "only the hash is stored")
                let id = try #require(try fixture.library.accounts.apiTokens().first?.id)
                #expect(try fixture.library.accounts.apiTokens().first?.lastUsed != nil)
                let revoked = try await client.execute(uri: "/settings/tokens/\(id)/revoke", method: .post, headers: headers,
                                                       body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(revoked.status == .seeOther)
                #expect(try await client.execute(uri: "/api/v1/documents", method: .get, headers: bearer).status == .unauthorized)
            }
        }
    }
}

/// Correcting a member, and the export download.
@Suite struct WebFamilyEditExportTests {
    @Test func aMemberIsCorrectedAndTheExportHoldsEveryLetter() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, browser in
                let headers = browser.form
                let store = try FamilyStore.open(library: fixture.library.location)
                let id = try #require(try store.list().first { $0.name == "Kari Nordmann" }?.id)
                let edited = try await client.execute(uri: "/family/\(id)/edit", method: .post, headers: headers,
                                                      body: ByteBuffer(string: "_csrf=\(browser.csrf)&fnr=\(WebFixture.number)"))
                #expect(edited.status == .seeOther)
                let kari = try #require(try store.list().first { $0.id == id })
                #expect(kari.maskedFnr == "170972 •••••" && kari.birthDate == "1972-09-17", "the birth date follows the number")
                let clash = try await client.execute(uri: "/family/\(id)/edit", method: .post, headers: headers,
                                                     body: ByteBuffer(string: "_csrf=\(browser.csrf)&born=2001-01-01"))
                #expect(clash.status == .badRequest, "a birth date the number contradicts")
                #expect(try await client.execute(uri: "/family/999/edit", method: .post, headers: headers,
                                                 body: ByteBuffer(string: "_csrf=\(browser.csrf)&born=2001-01-01")).status == .notFound)

                let export = try await client.execute(uri: "/settings/export", method: .get, headers: browser.headers)
                #expect(export.status == .ok && export.headers[.contentDisposition]?.contains("arkivator-eksport.json") == true)
                let documents = try #require(try JSONSerialization.jsonObject(with: Data(buffer: export.body)) as? [[String: Any]])
                #expect(documents.count == 2 && !export.text.contains(WebFixture.number))
            }
        }
    }
}
