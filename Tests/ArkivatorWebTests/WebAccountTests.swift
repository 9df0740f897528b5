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

/// Accounts for the people who help the family: invited by the owner, signed in with their own
/// password, seeing only the letters of the members they were given, every opening in the log.
@Suite struct WebAccountTests {
    static let password = "mormors eget passord"

    /// Kari's letter beside the fixture's two (Ola's, and one filed to no one).
    static func withKarisLetter(_ fixture: WebFixture) throws {
        try fixture.file(sha: String(repeating: "c3", count: 32), title: "2024-06-01 Lab-svar Blodprøver", type: .labSvar,
                         person: "Kari Nordmann", date: "2024-06-01", text: "Lab-svar\nPasient: Kari Nordmann\nHemoglobin 13,1 g/dL")
    }

    /// The owner invites «Mormor» to see Kari's letters; returns the invite's path.
    static func invite(_ client: some TestClientProtocol, owner: Browser, role: String = "reader") async throws -> String {
        let made = try await client.execute(uri: "/kontoer/ny", method: .post, headers: owner.form,
                                            body: ByteBuffer(string: "_csrf=\(owner.csrf)&name=Mormor&member=Kari+Nordmann&role=\(role)"))
        #expect(made.status == .ok && made.text.contains("Send denne lenken til Mormor"))
        let start = try #require(made.text.range(of: "/invitasjon/")).lowerBound
        return String(made.text[start...].prefix { $0 != "\"" })
    }

    /// Takes the invite with a password; the new session's browser.
    static func join(_ client: some TestClientProtocol, _ invite: String) async throws -> Browser {
        let welcome = try await client.execute(uri: invite, method: .get)
        #expect(welcome.status == .ok && welcome.text.contains("Velkommen, Mormor") && welcome.text.contains("Kari Nordmann"))
        let password = Self.password.replacingOccurrences(of: " ", with: "+")
        let joined = try await client.execute(uri: invite, method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                                              body: ByteBuffer(string: "password=\(password)&again=\(password)"))
        #expect(joined.status == .seeOther)
        let cookie = String(try #require(joined.headers[.setCookie]).prefix { $0 != ";" })
        let page = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie])
        let start = try #require(page.text.range(of: "name=\"_csrf\" value=\"")).upperBound
        return Browser(cookie: cookie, csrf: String(page.text[start...].prefix { $0 != "\"" }))
    }

    /// The CSRF token of the session in `cookie`, read from the library page.
    func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    static func csrf(_ client: some TestClientProtocol, _ cookie: String) async throws -> String {
        let page = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie])
        let start = try #require(page.text.range(of: "name=\"_csrf\" value=\"")).upperBound
        return String(page.text[start...].prefix { $0 != "\"" })
    }

    @Test func aReaderSeesOnlyTheLettersOfTheMembersGiven() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try Self.withKarisLetter(fixture)
            try await fixture.signedIn { client, owner in
                let invite = try await Self.invite(client, owner: owner)
                let mormor = try await Self.join(client, invite)
                let again = try await client.execute(uri: invite, method: .get)
                #expect(again.status == .gone && again.text.contains("brukt eller utløpt"), "an invite works once")

                let library = try await client.execute(uri: "/", method: .get, headers: mormor.headers)
                #expect(library.text.contains("/documents/c3c3c3c3c3") && library.text.contains("1 dokument"))
                #expect(!library.text.contains("Ola Nordmann") && !library.text.contains("Hjerteavdelingen"))
                #expect(!library.text.contains("Ortopedisk") && !library.text.contains("href=\"/settings\""))
                #expect(library.text.contains("Logg ut (Mormor)"))
                let search = try await client.execute(uri: "/search?q=pasient", method: .get, headers: mormor.headers)
                #expect(search.text.contains("/documents/c3c3c3c3c3") && !search.text.contains("b2b2b2b2b2"))
                for path in ["/documents/b2b2b2b2b2", "/documents/b2b2", "/documents/a1a1a1a1a1", "/documents/b2b2b2b2b2/files/0",
                             "/documents/b2b2b2b2b2/thumbnail", "/documents/b2b2b2b2b2/originals/1", "/api/v1/documents/b2b2b2b2b2"] {
                    let answer = try await client.execute(uri: path, method: .get, headers: mormor.headers)
                    #expect(answer.status == .notFound, "\(path)")
                }
                for path in ["/family", "/settings", "/review", "/trash", "/delinger", "/upload", "/calendar", "/kontoer", "/logg",
                             "/api/v1/family", "/api/v1/queue"] {
                    let answer = try await client.execute(uri: path, method: .get, headers: mormor.headers)
                    #expect(answer.status == .forbidden && !answer.text.contains("Ola"), "\(path)")
                }
                let api = try await client.execute(uri: "/api/v1/documents", method: .get, headers: mormor.headers)
                #expect(api.text.contains("c3c3c3c3c3") && !api.text.contains("b2b2b2b2b2") && api.text.contains("\"total\":1"))
                try fixture.library.calendar.replaceAppointments(of: String(repeating: "c3", count: 32),
                                                                 with: [Appointment(date: "2030-01-15", time: "10:30", place: "Lab, 2. etasje")])
                let letter = try await client.execute(uri: "/documents/c3c3c3c3c3", method: .get, headers: mormor.headers)
                #expect(letter.status == .ok && letter.text.contains("Hemoglobin 13,1"))
                #expect(!letter.text.contains("/documents/c3c3c3c3c3/delete") && !letter.text.contains("Rett teksten"))
                #expect(letter.text.contains("Lab, 2. etasje") && letter.text.contains("10:30"), "the appointment is shown")
                #expect(!letter.text.contains("/appointments") && !letter.text.contains("time.ics"), "not changed, not exported")
                let file = try await client.execute(uri: "/documents/c3c3c3c3c3/files/0", method: .get, headers: mormor.headers)
                #expect(file.status == .ok)
                let change = try await client.execute(uri: "/documents/c3c3c3c3c3/delete", method: .post, headers: mormor.form,
                                                      body: ByteBuffer(string: "_csrf=\(mormor.csrf)"))
                #expect(change.status == .forbidden)
                #expect(try fixture.library.documents.document("c3c3c3c3c3").trashedAt == nil)
                let corrected = try await client.execute(uri: "/documents/c3c3c3c3c3/text", method: .post, headers: mormor.form,
                                                         body: ByteBuffer(string: "_csrf=\(mormor.csrf)&side1=Rettet+av+mormor"))
                #expect(corrected.status == .forbidden && corrected.text.contains("kan lese brevene, ikke endre dem"), "a reader reads")

                let members = try fixture.library.familyMembers()
                let kari = try #require(members.first { $0.name == "Kari Nordmann" }), ola = try #require(members.first { $0.name == "Ola Nordmann" })
                #expect(try await client.execute(uri: "/family/\(kari.id)/timeline", method: .get, headers: mormor.headers).status == .ok)
                #expect(try await client.execute(uri: "/family/\(ola.id)/timeline", method: .get, headers: mormor.headers).status == .notFound)

                // Every page the account can reach, link by link: nothing of Ola's, nor of the letter filed to no one.
                var seen: Set<String> = [], queue = ["/", "/search?q=pasient", "/search?q=epikrise", "/api/v1/documents", "/api/v1/search?q=brystsmerter"]
                while let path = queue.popLast(), seen.count < 200 {
                    guard seen.insert(path).inserted else { continue }
                    let answer = try await client.execute(uri: path, method: .get, headers: mormor.headers)
                    for secret in ["Ola Nordmann", "Hjerteavdelingen", "brystsmerter", "Ortopedisk", "b2b2b2b2", "a1a1a1a1"] {
                        #expect(!answer.text.contains(secret) || path.contains("q=") && !answer.text.contains("/documents/b2b2"), "\(path) shows \(secret)")
                    }
                    for link in answer.text.components(separatedBy: "href=\"").dropFirst() {
                        let href = String(link.prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
                        if href.hasPrefix("/"), !href.hasPrefix("/static/"), !seen.contains(href) { queue.append(href) }
                    }
                }
                #expect(seen.count > 5)

                // Every letter of the library at every address a letter has, by whole id and by short id.
                for document in try fixture.library.documents.list(DocumentFilter(), limit: 100) {
                    let mine = document.familyMember == "Kari Nordmann"
                    for id in [document.id, String(document.id.prefix(4)), document.id.uppercased()] {
                        for path in ["/documents/\(id)", "/documents/\(id)/files/0", "/documents/\(id)/files/1", "/documents/\(id)/thumbnail",
                                     "/documents/\(id)/originals/1", "/documents/\(id)/pages/1/photo", "/api/v1/documents/\(id)"] {
                            let answer = try await client.execute(uri: path, method: .get, headers: mormor.headers)
                            if !mine { #expect(answer.status == .notFound, "\(path) of a letter not Kari's answers \(answer.status)") }
                            #expect(!answer.text.contains("Ola Nordmann") && !answer.text.contains("Ortopedisk"), "\(path)")
                        }
                    }
                }
                // The API's list in pages of one and of 200: Kari's letter only, counted as one.
                for query in ["limit=1&offset=0", "limit=1&offset=1", "limit=200", "person=Ola", "type=epikrise", "q=Epikrise"] {
                    let path = query.hasPrefix("q=") ? "/api/v1/search?\(query)" : "/api/v1/documents?\(query)"
                    let answer = try await client.execute(uri: path, method: .get, headers: mormor.headers)
                    #expect(!answer.text.contains("b2b2b2b2") && !answer.text.contains("a1a1a1a1") && !answer.text.contains("Ola Nordmann"), "\(path)")
                }
                for query in ["person=Ola+Nordmann", "person=ukjent", "type=epikrise", "side=2", "q=brystsmerter"] {
                    let answer = try await client.execute(uri: (query.hasPrefix("q=") ? "/search?" : "/?") + query, method: .get, headers: mormor.headers)
                    #expect(!answer.text.contains("/documents/b2b2") && !answer.text.contains("/documents/a1a1"), "\(query)")
                    #expect(!answer.text.contains("1 dokument") || query == "side=2", "no count of others' letters: \(query)")
                }

                // The log: the invite, the sign-in and the openings, by whom and from what kind of device.
                let log = try fixture.library.audit.entries()
                #expect(log.contains { $0.action == .accountInvited && $0.account == "eier" && $0.detail.hasPrefix("Mormor") })
                #expect(log.contains { $0.action == .accountJoined && $0.account == "Mormor" })
                #expect(log.contains { $0.action == .letterOpened && $0.account == "Mormor" && $0.document == "c3c3c3c3c3"
                    && $0.member == "Kari Nordmann" })
                #expect(log.contains { $0.action == .docxOpened && $0.account == "Mormor" })
                // The owner's changes are logged too: a correction, a deletion and its undo.
                for (path, body) in [("/documents/c3c3c3c3c3/text", "side1=Lab-svar+rettet"), ("/documents/c3c3c3c3c3/delete", ""),
                                     ("/documents/c3c3c3c3c3/restore", "")] {
                    let done = try await client.execute(uri: path, method: .post, headers: owner.form,
                                                        body: ByteBuffer(string: "_csrf=\(owner.csrf)&\(body)"))
                    #expect(done.status == .seeOther, "\(path)")
                }
                let changes = try fixture.library.audit.entries(account: "eier").map(\.action)
                #expect([.textCorrected, .deleted, .restored].allSatisfy(changes.contains), "\(changes)")
                let page = try await client.execute(uri: "/logg?konto=Mormor", method: .get, headers: owner.headers)
                #expect(page.status == .ok && page.text.contains("åpnet brevet") && page.text.contains("Mormor"))
            }
        }
    }

    @Test func anAccountSignsInByNameAndARemovedOneIsSignedOutEverywhere() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try Self.withKarisLetter(fixture)
            try await fixture.signedIn { client, owner in
                let mormor = try await Self.join(client, try await Self.invite(client, owner: owner, role: "family"))
                let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
                let password = Self.password.replacingOccurrences(of: " ", with: "+")
                let wrong = try await client.execute(uri: "/login", method: .post, headers: form,
                                                     body: ByteBuffer(string: "name=Mormor&password=feil+passord+her"))
                #expect(wrong.status == .unauthorized && wrong.text.contains("Feil navn eller passord"))
                let unknown = try await client.execute(uri: "/login", method: .post, headers: form,
                                                       body: ByteBuffer(string: "name=Ukjent&password=\(password)"))
                #expect(unknown.status == .unauthorized)
                let signed = try await client.execute(uri: "/login", method: .post, headers: form,
                                                      body: ByteBuffer(string: "name=mormor&password=\(password)"))
                #expect(signed.status == .seeOther)
                let second = String(try #require(signed.headers[.setCookie]).prefix { $0 != ";" })
                #expect(try await client.execute(uri: "/", method: .get, headers: [.cookie: second]).status == .ok)

                // The account sees its own two browsers and signs the other one out.
                let devices = try await client.execute(uri: "/enheter", method: .get, headers: [.cookie: second])
                let ids = devices.text.components(separatedBy: "action=\"/enheter/").dropFirst().map { String($0.prefix { $0.isNumber }) }
                #expect(ids.count == 2 && devices.text.contains("(denne)"), "\(devices.text)")
                let ownerDevices = try await client.execute(uri: "/enheter", method: .get, headers: owner.headers)
                #expect(!ids.contains { ownerDevices.text.contains("action=\"/enheter/\($0)/") }, "the owner's list is the owner's")
                let firstDevice = try #require(try fixture.library.accounts.devices(account: fixture.library.accounts.accounts().first?.id,
                                                                              current: String(second.dropFirst("arkivator_okt=".count)))
                                                   .first { !$0.current })
                let signedOut = try await client.execute(uri: "/enheter/\(firstDevice.id)/logg-ut", method: .post, headers: [.cookie: second,
                    .contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "_csrf=\(try await Self.csrf(client, second))"))
                #expect(signedOut.status == .seeOther)
                #expect(try await client.execute(uri: "/", method: .get, headers: mormor.headers).headers[.location] == "/login")
                let helper = Browser(cookie: second, csrf: try await Self.csrf(client, second))

                // A family account corrects the text of its own letters, and only those.
                let letter = try await client.execute(uri: "/documents/c3c3c3c3c3", method: .get, headers: helper.headers)
                #expect(letter.text.contains("Rett teksten") && !letter.text.contains("/documents/c3c3c3c3c3/delete"))
                let corrected = try await client.execute(uri: "/documents/c3c3c3c3c3/text", method: .post, headers: helper.form,
                                                         body: ByteBuffer(string: "_csrf=\(helper.csrf)&side1=Lab-svar+rettet+av+mormor"))
                #expect(corrected.status == .seeOther)
                #expect(try fixture.library.documents.document("c3c3c3c3c3").text.contains("rettet av mormor"))
                let other = try await client.execute(uri: "/documents/b2b2b2b2b2/text", method: .post, headers: helper.form,
                                                     body: ByteBuffer(string: "_csrf=\(helper.csrf)&side1=Ikke+mitt"))
                #expect(other.status == .notFound)
                #expect(try !fixture.library.documents.document("b2b2b2b2b2").text.contains("Ikke mitt"))
                #expect(try fixture.library.audit.entries(account: "Mormor").contains { $0.action == .textCorrected && $0.document == "c3c3c3c3c3" })
                let accounts = try await client.execute(uri: "/kontoer", method: .get, headers: owner.headers)
                #expect(accounts.text.contains("Mormor") && accounts.text.contains("Familie") && accounts.text.contains("Kari Nordmann"))
                let id = try #require(try fixture.library.accounts.accounts().first?.id)
                let removed = try await client.execute(uri: "/kontoer/\(id)/fjern", method: .post, headers: owner.form,
                                                       body: ByteBuffer(string: "_csrf=\(owner.csrf)"))
                #expect(removed.status == .seeOther)
                for cookie in [mormor.cookie, second] {
                    let answer = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie])
                    #expect(answer.status == .seeOther && answer.headers[.location] == "/login", "signed out everywhere")
                }
                let after = try await client.execute(uri: "/login", method: .post, headers: form,
                                                     body: ByteBuffer(string: "name=Mormor&password=\(password)"))
                #expect(after.status == .unauthorized)
                let log = try fixture.library.audit.entries()
                #expect(log.contains { $0.action == .signInFailed && $0.account == "Mormor" })
                #expect(log.contains { $0.action == .signedIn && $0.account == "Mormor" })
                #expect(log.contains { $0.action == .accountRemoved && $0.detail == "Mormor" })
            }
        }
    }

    @Test func aFamilyAccountReviewsCorrectsAndUploadsForItsOwnMembersOnly() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            // Kari's letter waits for review (its date is uncertain), beside Ola's and the one filed to no one.
            try fixture.file(sha: String(repeating: "c3", count: 32), title: "2024-06-01 Lab-svar Blodprøver", type: .labSvar,
                             person: "Kari Nordmann", date: "2024-06-01", text: "Lab-svar\nPasient: Kari Nordmann", needsReview: ["documentDate"])
            try fixture.file(sha: String(repeating: "d4", count: 32), title: "2024-07-01 Epikrise Ola", type: .epikrise,
                             person: "Ola Nordmann", date: "2024-07-01", text: "Epikrise\nPasient: Ola Nordmann", needsReview: ["documentDate"])
            try await fixture.signedIn { client, owner in
                let mormor = try await Self.join(client, try await Self.invite(client, owner: owner, role: "family"))
                let library = try await client.execute(uri: "/", method: .get, headers: mormor.headers)
                #expect(library.text.contains("href=\"/review\"") && library.text.contains("href=\"/upload\""))
                #expect(!library.text.contains("href=\"/trash\"") && !library.text.contains("href=\"/settings\""))

                // Review: Kari's letter only, counted as one; no «Ukjent person» to file it to, nor Ola.
                let review = try await client.execute(uri: "/review", method: .get, headers: mormor.headers)
                #expect(review.status == .ok && review.text.contains("Lab-svar Blodprøver") && review.text.contains("1 venter"))
                #expect(!review.text.contains("Ola") && !review.text.contains("Ukjent person") && !review.text.contains("a1a1a1"))
                #expect(!review.text.contains("/appointments"), "appointments stay the owner's to change")
                let saved = try await client.execute(uri: "/review/c3c3c3c3c3", method: .post, headers: mormor.form,
                                                     body: ByteBuffer(string: "_csrf=\(mormor.csrf)&title=2024-06-02+Lab-svar+Blodprøver&person=Kari+Nordmann&type=lab-svar&date=2024-06-02"))
                #expect(saved.status == .seeOther)
                let kari = try fixture.library.documents.document("c3c3c3c3c3")
                #expect(kari.documentDate == "2024-06-02")
                let after = try await client.execute(uri: "/review", method: .get, headers: mormor.headers)
                #expect(after.text.contains("Ingenting venter"), "Ola's letter is not hers")

                // On the letter's page: the fields, but not filed away from Kari, nor to no one.
                let page = try await client.execute(uri: "/documents/c3c3c3c3c3", method: .get, headers: mormor.headers)
                #expect(page.text.contains("action=\"/documents/c3c3c3c3c3/edit\"") && !page.text.contains("/delete"))
                #expect(!page.text.contains("Ola Nordmann") && !page.text.contains("Ukjent person"))
                for person in ["Ola+Nordmann", ""] {
                    let moved = try await client.execute(uri: "/documents/c3c3c3c3c3/edit", method: .post, headers: mormor.form,
                                                         body: ByteBuffer(string: "_csrf=\(mormor.csrf)&person=\(person)"))
                    #expect(moved.status == .forbidden && moved.text.contains("Du kan bare legge brevet til Kari Nordmann"), "\(person)")
                }
                #expect(try fixture.library.documents.document("c3c3c3c3c3").familyMember == "Kari Nordmann")
                let kept = try await client.execute(uri: "/documents/c3c3c3c3c3/edit", method: .post, headers: mormor.form,
                                                    body: ByteBuffer(string: "_csrf=\(mormor.csrf)&keywords=blodprøve"))
                #expect(kept.status == .seeOther)
                #expect(try fixture.library.documents.document("c3c3c3c3c3").keywords == ["blodprøve"])
                for path in ["/documents/d4d4d4d4d4/edit", "/review/d4d4d4d4d4", "/documents/d4d4d4d4d4/explain"] {
                    let other = try await client.execute(uri: path, method: .post, headers: mormor.form,
                                                         body: ByteBuffer(string: "_csrf=\(mormor.csrf)&keywords=ikke+mitt"))
                    #expect(other.status == .notFound, "\(path)")
                }
                #expect(try fixture.library.documents.document("d4d4d4d4d4").keywords.isEmpty)

                // Uploads: filed as usual; of a letter that turns out to be Ola's, only that it was filed.
                var uploads: [String] = []
                for sha in ["e5", "f6"] {
                    let id = try #require(try json(try await client.execute(uri: "/api/v1/uploads", method: .post, headers: mormor.script))["id"]
                        as? String)
                    _ = try await client.execute(uri: "/api/v1/uploads/\(id)/pages/1", method: .put, headers: mormor.script,
                                                 body: ByteBuffer(bytes: try Fixtures.bytes("clean.png")))
                    let done = try await client.execute(uri: "/api/v1/uploads/\(id)/done", method: .post, headers: mormor.script)
                    #expect(done.status == .ok)
                    let full = String(repeating: sha, count: 32)
                    try fixture.library.journal.receive(sha256: full, source: fixture.inbox.appendingPathComponent(id).path)
                    try fixture.file(sha: full, title: sha == "e5" ? "2024-08-01 Innkalling Kari" : "2024-08-02 Henvisning Ola",
                                     type: .innkalling, person: sha == "e5" ? "Kari Nordmann" : "Ola Nordmann", date: "2024-08-01", text: "Brev")
                    try fixture.library.journal.advance(sha256: full, to: .done)
                    uploads.append(id)
                }
                let mine = try json(try await client.execute(uri: "/api/v1/uploads/\(uploads[0])", method: .get, headers: mormor.script))
                #expect(mine["status"] as? String == "done" && mine["title"] as? String == "2024-08-01 Innkalling Kari")
                let others = try await client.execute(uri: "/api/v1/uploads/\(uploads[1])", method: .get, headers: mormor.script)
                let told = try json(others)
                #expect(told["status"] as? String == "done" && told["document"] == nil && told["title"] == nil && told["person"] == nil)
                #expect((told["message"] as? String)?.contains("eieren av arkivet tar seg av det") == true)
                #expect(!others.text.contains("Ola") && !others.text.contains("f6f6") && !others.text.contains("Henvisning"))
                let shown = try await client.execute(uri: "/upload?mottatt=\(uploads[1])", method: .get, headers: mormor.headers)
                #expect(!shown.text.contains("Ola") && shown.text.contains("eieren av arkivet tar seg av det"))
                let ownerSees = try json(try await client.execute(uri: "/api/v1/uploads/\(uploads[1])", method: .get, headers: owner.script))
                #expect(ownerSees["title"] as? String == "2024-08-02 Henvisning Ola")
            }
        }
    }

    @Test func theOwnersSecondStepIsACodeFromAnAppAndADeviceCanBeRemembered() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, owner in
                let begun = try await client.execute(uri: "/settings/totp/ny", method: .post, headers: owner.form,
                                                     body: ByteBuffer(string: "_csrf=\(owner.csrf)"))
                #expect(begun.status == .ok && begun.text.contains("id=\"totp-key\"") && begun.text.contains("otpauth://totp/"))
                let secret = try #require(try fixture.library.accounts.pendingTOTP())
                #expect(begun.text.contains(String(TOTP.base32(secret).prefix(4))))
                let code = { (offset: TimeInterval) in TOTP.code(secret: secret, counter: TOTP.timeStep(Date().addingTimeInterval(offset))) }
                let wrong = try await client.execute(uri: "/settings/totp/bekreft", method: .post, headers: owner.form,
                                                     body: ByteBuffer(string: "_csrf=\(owner.csrf)&kode=12345"))
                #expect(wrong.status == .badRequest && wrong.text.contains("Koden stemmer ikke"))
                // The code of the half minute before: the current one is then free for the sign-in below.
                // Typed early in a half minute, so that it is still inside the server's window of one
                // step either side when the request arrives, however slow the machine.
                let into = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: TOTP.step)
                if TOTP.step - into < 10 { try await Task.sleep(for: .seconds(TOTP.step - into + 0.5)) }
                let on = try await client.execute(uri: "/settings/totp/bekreft", method: .post, headers: owner.form,
                                                  body: ByteBuffer(string: "_csrf=\(owner.csrf)&kode=\(code(-30))"))
                #expect(on.status == .seeOther && on.headers[.location] == "/settings/totp?pa=1")

                let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
                let password = "password=" + WebFixture.password.replacingOccurrences(of: " ", with: "+")
                let asked = try await client.execute(uri: "/login", method: .post, headers: form, body: ByteBuffer(string: password + "&husk=1"))
                #expect(asked.status == .ok && asked.headers[.setCookie] == nil && asked.text.contains("Kode fra appen"))
                let step = try #require(asked.text.components(separatedBy: "name=\"trinn\" value=\"").dropFirst().first?.prefix { $0 != "\"" })
                let refused = try await client.execute(uri: "/login/kode", method: .post, headers: form,
                                                       body: ByteBuffer(string: "trinn=\(step)&kode=000001"))
                #expect(refused.status == .unauthorized && refused.headers[.setCookie] == nil)
                let signed = try await client.execute(uri: "/login/kode", method: .post, headers: form,
                                                      body: ByteBuffer(string: "trinn=\(step)&kode=\(code(0))"))
                #expect(signed.status == .seeOther)
                let cookie = try #require(signed.headers[.setCookie])
                #expect(cookie.contains("Max-Age=2592000"), "remembered for 30 days: \(cookie)")
                let again = try await client.execute(uri: "/login/kode", method: .post, headers: form,
                                                     body: ByteBuffer(string: "trinn=\(step)&kode=\(code(0))"))
                #expect(again.status == .unauthorized, "the step is used up")
                let noCode = try await client.execute(uri: "/login/kode", method: .post, headers: form,
                                                      body: ByteBuffer(string: "trinn=ukjent&kode=\(code(0))"))
                #expect(noCode.status == .unauthorized && noCode.text.contains("Skriv passordet på nytt"))

                let keep = try await client.execute(uri: "/settings/totp/av", method: .post, headers: owner.form,
                                                    body: ByteBuffer(string: "_csrf=\(owner.csrf)&password=feil"))
                #expect(keep.status == .unauthorized)
                #expect(try fixture.library.accounts.totpEnabled())
                let off = try await client.execute(uri: "/settings/totp/av", method: .post, headers: owner.form,
                                                   body: ByteBuffer(string: "_csrf=\(owner.csrf)&\(password)"))
                #expect(off.status == .seeOther)
                #expect(try !fixture.library.accounts.totpEnabled())
                let plain = try await client.execute(uri: "/login", method: .post, headers: form, body: ByteBuffer(string: password))
                #expect(plain.status == .seeOther && !(plain.headers[.setCookie] ?? "").contains("Max-Age"))
                let log = try fixture.library.audit.entries().map(\.action)
                #expect([.totpOn, .totpOff, .signInFailed].allSatisfy(log.contains))
                #expect(try fixture.library.audit.entries().contains { $0.action == .signedIn && $0.detail == "med kode fra app" })
            }
        }
    }
}
