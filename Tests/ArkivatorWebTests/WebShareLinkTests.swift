import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// Share links over a live server on 127.0.0.1: chosen in the web app, opened without a
/// session, only the chosen letters, no fødselsnummer, every opening logged, and 410 with the
/// words once revoked or expired.
@Suite struct WebShareLinkTests {
    static let iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
        + "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"

    @Test func aLinkShowsOnlyTheChosenLettersWithoutASessionUntilRevokedOrExpired() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir, port: 0)
            try await fixture.server.setPassword(WebFixture.password, again: WebFixture.password)
            try await fixture.server.application().test(.live) { client in
                let browser = try await Browser.signIn(client)
                // Without a session the owner's pages send the browser to sign in.
                #expect(try await client.execute(uri: "/del/ny", method: .get).headers[.location] == "/login")
                #expect(try await client.execute(uri: "/delinger", method: .get).headers[.location] == "/login")

                // The form with the epikrise chosen (another page hands the ids over) and Ola's letters.
                let form = try await client.execute(uri: "/del/ny?id=b2b2b2b2b2&person=Ola+Nordmann", method: .get, headers: browser.headers)
                #expect(form.status == .ok)
                #expect(form.text.contains("id=\"share-b2b2b2b2b2\" name=\"id\" value=\"b2b2b2b2b2\" checked"))
                #expect(form.text.contains("name=\"days\" value=\"14\" checked"))
                #expect(!form.text.contains(WebFixture.number))

                // Made without the CSRF token: refused; with it: the address, shown once.
                let body = "id=b2b2b2b2b2&days=7"
                let forged = try await client.execute(uri: "/del/ny", method: .post, headers: browser.form, body: ByteBuffer(string: body))
                #expect(forged.status == .forbidden)
                let odd = try await client.execute(uri: "/del/ny", method: .post, headers: browser.form,
                                                   body: ByteBuffer(string: body.replacingOccurrences(of: "7", with: "5") + "&_csrf=\(browser.csrf)"))
                #expect(odd.status == .badRequest)
                let made = try await client.execute(uri: "/del/ny", method: .post, headers: browser.form,
                                                    body: ByteBuffer(string: body + "&_csrf=\(browser.csrf)"))
                #expect(made.status == .ok)
                let start = try #require(made.text.range(of: "/delt/"))
                let path = "/delt/" + made.text[start.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
                #expect(path.count > 40)

                // Opened with no cookie at all: only the epikrise, masked, and the headers that keep it private.
                let shared = try await client.execute(uri: path, method: .get, headers: [.userAgent: Self.iPhone])
                #expect(shared.status == .ok)
                #expect(shared.text.contains("2024-05-02 Epikrise Hjerteavdelingen"))
                #expect(shared.text.contains("170972 •••••"))
                #expect(shared.text.contains("&lt;script&gt;"), "the letter's text is escaped")
                #expect(!shared.text.contains("Innkalling Ortopedisk"), "a letter not chosen")
                #expect(!shared.text.contains(WebFixture.number) && !shared.text.contains("43859"))
                #expect(!shared.text.contains("/documents/"), "never the archive's own files")
                #expect(!shared.text.contains("/logout"), "no session's menu")
                #expect(shared.text.contains("<meta name=\"robots\" content=\"noindex, nofollow\">"))
                #expect(shared.headers[.xRobotsTag] == "noindex, nofollow")
                #expect(shared.headers[.referrerPolicy] == "no-referrer")
                #expect(shared.headers[.cacheControl] == "no-store")
                #expect(shared.headers[.setCookie] == nil)

                let links = try fixture.library.sharing.shareLinks()
                let link = try #require(links.first)
                #expect(links.count == 1 && link.letters.map(\.id) == ["b2b2b2b2b2"])
                #expect(link.openings.count == 1 && link.openings.first?.client == "mobile · Safari")
                #expect(abs(link.expiresAt.timeIntervalSince(link.createdAt) - 7 * 86_400) < 0.01)

                // The owner sees the opening on «Delinger».
                let list = try await client.execute(uri: "/delinger", method: .get, headers: browser.headers)
                #expect(list.text.contains("Åpnet 1 gang") && list.text.contains("Mobil · Safari"))
                #expect(list.text.contains("action=\"/delinger/\(link.id)/revoke\""))

                // Revoked: 410 with the words, for the page and everything under it.
                let unforged = try await client.execute(uri: "/delinger/\(link.id)/revoke", method: .post, headers: browser.form,
                                                        body: ByteBuffer(string: ""))
                #expect(unforged.status == .forbidden)
                let revoked = try await client.execute(uri: "/delinger/\(link.id)/revoke", method: .post, headers: browser.form,
                                                       body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(revoked.status == .seeOther)
                let gone = try await client.execute(uri: path, method: .get)
                #expect(gone.status == .gone && gone.text.contains("Denne delingen er trukket tilbake"))
                #expect(!gone.text.contains("Epikrise"))
                #expect(gone.headers[.referrerPolicy] == "no-referrer")
                // An error page at a link's address sends no referrer either: the address is the secret.
                let astray = try await client.execute(uri: path + "/ukjent", method: .get)
                #expect(astray.status == .notFound && astray.headers[.referrerPolicy] == "no-referrer")

                // Expired (the expiry set in the past through the library): 410 with its words.
                let second = try fixture.library.sharing.createShareLink(["a1a1"], days: 1)
                #expect(try await client.execute(uri: "/delt/\(second.token)", method: .get).status == .ok)
                // This letter's "page" is no picture: its PDF cannot be made, the doctor is told
                // so in words, and so is the owner on «Delinger».
                let noPDF = try await client.execute(uri: "/delt/\(second.token)/pdf", method: .get)
                #expect(noPDF.status == .internalServerError && noPDF.text.contains("PDF-en kunne ikke lages"))
                #expect(!noPDF.text.contains(dir.path), "no path on the server")
                let told = try await client.execute(uri: "/delinger", method: .get, headers: browser.headers)
                #expect(told.text.contains("PDF-en kunne ikke lages (brevene kan fortsatt leses"))
                try fixture.library.sharing.setShareLinkExpiry(second.link.id, to: Date().addingTimeInterval(-60))
                let expired = try await client.execute(uri: "/delt/\(second.token)", method: .get)
                #expect(expired.status == .gone && expired.text.contains("Denne delingen er utløpt"))
                #expect(!expired.text.contains("Innkalling"))
                let unknown = try await client.execute(uri: "/delt/" + String(repeating: "x", count: 43), method: .get)
                #expect(unknown.status == .notFound)

                let after = try await client.execute(uri: "/delinger", method: .get, headers: browser.headers)
                #expect(after.text.contains("Trukket tilbake") && after.text.contains("Utløpt"))
                #expect(!after.text.contains("/revoke\""), "nothing left to revoke")
            }
        }
    }

    /// A real letter (the fixture `clean.png`, its number the household's), filed through real OCR:
    /// the link's PDF is the share pack, made once and kept, without the number; gone when revoked.
    @Test func theLinksPDFIsTheSharePackWithoutTheNumber() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext") else {
            Issue.record("poppler-utils is needed")
            return
        }
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir, port: 0)
            let library = fixture.library.location.directory
            #expect(try CLI.run(["family", "add", "Ingrid Marie Haugseth", "--fnr", WebFixture.number], library: library).status == 0)
            let scan = dir.appendingPathComponent("henvisning.png")
            try FileManager.default.copyItem(at: Fixtures.url("clean.png"), to: scan)
            let ingest = try CLI.run(["ingest", scan.path], library: library)
            #expect(ingest.status == 0, "\(ingest.stderr)")
            let letter = try #require(try fixture.library.documents.page().documents.first { $0.title.contains("Henvisning") })
            let made = try fixture.library.sharing.createShareLink([letter.id])
            try await fixture.server.setPassword(WebFixture.password, again: WebFixture.password)
            try await fixture.server.application().test(.live) { client in
                let pdf = try await client.execute(uri: "/delt/\(made.token)/pdf", method: .get)
                #expect(pdf.status == .ok)
                #expect(pdf.headers[.contentType] == "application/pdf" && pdf.headers[.contentDisposition]?.hasPrefix("attachment") == true)
                #expect(pdf.headers[.referrerPolicy] == "no-referrer" && pdf.headers[.cacheControl] == "no-store")
                let file = dir.appendingPathComponent("delt.pdf")
                try Data(buffer: pdf.body).write(to: file)
                let text = try Self.pdfText(file)
                #expect(text.contains("føflekk"), "\(text)")
                #expect(!text.contains(WebFixture.number) && !text.contains("43859"))
                let kept = try FileManager.default.contentsOfDirectory(atPath: fixture.library.sharing.shareFolderURL.path)
                #expect(kept.count == 2 && kept.filter { $0.hasSuffix(".pdf") }.count == 1, "made once and kept, with its page: \(kept)")

                let again = try await client.execute(uri: "/delt/\(made.token)/pdf", method: .get)
                #expect(again.status == .ok && again.body == pdf.body)
                #expect(try fixture.library.sharing.shareLink(made.link.id)?.openings.map(\.what) == [.pdf, .pdf])

                // The owner's own copies on «Delinger»: the same PDF (no opening counted), and the
                // text for an assistant without the number or the person's name; not without a session.
                let browser = try await Browser.signIn(client)
                let own = try await client.execute(uri: "/delinger/\(made.link.id)/pdf", method: .get, headers: browser.headers)
                #expect(own.status == .ok && own.body == pdf.body)
                #expect(try fixture.library.sharing.shareLink(made.link.id)?.openings.count == 2, "the owner's copy is no opening")
                let bundle = try await client.execute(uri: "/delinger/\(made.link.id)/tekst", method: .get, headers: browser.headers)
                #expect(bundle.status == .ok && bundle.headers[.contentType] == "text/plain; charset=utf-8")
                #expect(bundle.text.contains("føflekk"), "\(bundle.text)")
                #expect(!bundle.text.contains(WebFixture.number) && !bundle.text.contains("43859") && !bundle.text.contains("Haugseth"))
                let signedOut = try await client.execute(uri: "/delinger/\(made.link.id)/tekst", method: .get)
                #expect(signedOut.status != .ok)

                // The page beside the text: the PDF's page, the number under a box, never the archive's image.
                let page = try await client.execute(uri: "/delt/\(made.token)", method: .get)
                let image = "/delt/\(made.token)/sider/\(letter.id)/1"
                #expect(page.text.contains("lest av maskin (OCR)") && page.text.contains("Sjekk tall mot sidebildet"))
                #expect(page.text.contains("src=\"\(image)\"") && !page.text.contains("/documents/"))
                let shown = try await client.execute(uri: image, method: .get)
                #expect(shown.status == .ok && shown.headers[.contentType] == "image/jpeg")
                #expect(shown.headers[.referrerPolicy] == "no-referrer" && shown.headers[.cacheControl] == "no-store")
                let archivedPage = try #require(try fixture.library.documents.document(letter.id).files.images.first)
                #expect(Array(shown.body.readableBytesView.prefix(2)) == [0xFF, 0xD8])
                #expect(Data(buffer: shown.body) != (try Data(contentsOf: archivedPage.url)), "the boxed copy, not the archive's page")
                #expect(try await client.execute(uri: "/delt/\(made.token)/sider/\(letter.id)/2", method: .get).status == .notFound)
                #expect(try await client.execute(uri: "/delt/\(made.token)/sider/abcdef0123/1", method: .get).status == .notFound)
                // A pack made before its pages were kept is made again, once, with them.
                for name in try FileManager.default.contentsOfDirectory(atPath: fixture.library.sharing.shareFolderURL.path) where name.hasSuffix(".jpg") {
                    try FileManager.default.removeItem(at: fixture.library.sharing.shareFolderURL.appendingPathComponent(name))
                }
                let remade = try await client.execute(uri: image, method: .get)
                #expect(remade.status == .ok && remade.body == shown.body)

                try fixture.library.sharing.revokeShareLink(made.link.id)
                #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.library.sharing.shareFolderURL.path).isEmpty)
                let gone = try await client.execute(uri: "/delt/\(made.token)/pdf", method: .get)
                #expect(gone.status == .gone && gone.text.contains("trukket tilbake"))
                #expect(try await client.execute(uri: image, method: .get).status == .gone)
            }
        }
    }

    /// The PDF's text as poppler's `pdftotext` reads it.
    static func pdfText(_ file: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        process.arguments = ["-enc", "UTF-8", file.path, "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func linksAreMadeWithTheAddressTheDoctorReachesAndAWarningWhenThereIsNone() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, browser in
                let body = "id=b2b2b2b2b2&days=7"
                let made = try await client.execute(uri: "/del/ny", method: .post, headers: browser.form,
                                                    body: ByteBuffer(string: body + "&_csrf=\(browser.csrf)"))
                #expect(made.text.contains("Denne lenken virker bare på denne maskinen"), "made with this machine's address: said so")

                // With the address the doctor reaches the app at, the link is made with it, and no warning.
                let set = try await client.execute(uri: "/settings/adresse", method: .post, headers: browser.form,
                                                   body: ByteBuffer(string: "_csrf=\(browser.csrf)&address=https%3A%2F%2FArkiv.Hjemme.no%2F"))
                #expect(set.status == .seeOther)
                #expect(try fixture.library.setting(.webAddress) == "https://arkiv.hjemme.no")
                let published = try await client.execute(uri: "/del/ny", method: .post, headers: browser.form,
                                                       body: ByteBuffer(string: body + "&_csrf=\(browser.csrf)"))
                #expect(published.text.contains("https://arkiv.hjemme.no/delt/") && !published.text.contains("virker bare på denne maskinen"))
                let bad = try await client.execute(uri: "/settings/adresse", method: .post, headers: browser.form,
                                                   body: ByteBuffer(string: "_csrf=\(browser.csrf)&address=ftp%3A%2F%2Fx%3Ay%40arkiv"))
                #expect(bad.status == .badRequest && bad.text.contains("ingen adresse for nettappen"))
            }
        }
    }

    @Test func guessingShareLinksIsSlowedDownButAWorkingLinkIsNot() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let made = try fixture.library.sharing.createShareLink(["b2b2"], days: 1)
            try await fixture.server.application().test(.router) { client in
                for number in 0..<GuessThrottle.allowedMisses {
                    let miss = try await client.execute(uri: "/delt/gjettet\(number)", method: .get)
                    #expect(miss.status == .notFound)
                }
                let refused = try await client.execute(uri: "/delt/gjettet-igjen/pdf", method: .get)
                #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] != nil)
                #expect(refused.text.contains("For mange lenker som ikke virker"))
                let working = try await client.execute(uri: "/delt/\(made.token)", method: .get)
                #expect(working.status == .ok && working.text.contains("Epikrise"), "the doctor's link opens all the same")
            }
        }
    }

    @Test func theClientHintKeepsOnlyTheKindOfDeviceAndBrowser() {
        #expect(ShareClientHint.of(userAgent: Self.iPhone) == "mobile · Safari")
        #expect(ShareClientHint.of(userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            + "Chrome/126.0 Safari/537.36 Edg/126.0") == "computer · Edge")
        #expect(ShareClientHint.of(userAgent: nil) == "unknown · other")
        #expect(ShareClientHint.shown("mobile · Safari", language: .english) == "Phone · Safari")
    }
}
