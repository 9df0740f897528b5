import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdBcrypt
import HummingbirdTesting
import NIOCore
import NIOConcurrencyHelpers
import Testing

/// Every page and action of the web app in process, signed out, signed in and with bad input.
@Suite struct WebRouteTests {
    static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    @Test func signedOutOnlyTheSignInPagesAndTheStylesheetOpen() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.server.application().test(.router) { client in
                let home = try await client.execute(uri: "/", method: .get)
                #expect(home.status == .seeOther && home.headers[.location] == "/login")
                let login = try await client.execute(uri: "/login", method: .get)
                #expect(login.status == .seeOther && login.headers[.location] == "/setup", "no password yet: first run")
                for uri in ["/api/v1/documents", "/api/v1/search?q=kne", "/api/v1/documents/a1a1a1a1a1"] {
                    #expect(try await client.execute(uri: uri, method: .get).status == .unauthorized, "\(uri)")
                }
                for uri in ["/documents/a1a1a1a1a1", "/documents/a1a1a1a1a1/files/0", "/search?q=kne"] {
                    let page = try await client.execute(uri: uri, method: .get)
                    #expect(page.status == .seeOther && !page.text.contains("Innkalling"), "\(uri)")
                }
                let css = try await client.execute(uri: "/static/app.css", method: .get)
                #expect(css.status == .ok && css.headers[.contentType]?.hasPrefix("text/css") == true)
                #expect(css.headers[.contentSecurityPolicy] == SecurityHeaders.policy)
            }
        }
    }

    @Test func theFirstRunChoosesAPasswordOnceAndSignsIn() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.server.application().test(.router) { client in
                let setup = try await client.execute(uri: "/setup", method: .get)
                #expect(setup.status == .ok && setup.text.contains("type=\"password\"") && setup.text.contains("Engangskode"))
                let code = fixture.server.setupCode
                // Without the code printed in the terminal, nobody can claim the archive (not even
                // through a proxy that says the request came from this machine).
                for headers: HTTPFields in [Self.form, [.contentType: "application/x-www-form-urlencoded", .xForwardedFor: "127.0.0.1"]] {
                    let claimed = try await client.execute(uri: "/setup", method: .post, headers: headers,
                                                           body: ByteBuffer(string: "code=AAAA-BBBB&password=riktig+hest+batteri&again=riktig+hest+batteri"))
                    #expect(claimed.status == .forbidden && claimed.text.contains("Engangskoden stemmer ikke"))
                }
                #expect(try fixture.library.accounts.webPasswordHash() == nil)
                let short = try await client.execute(uri: "/setup", method: .post, headers: Self.form,
                                                     body: ByteBuffer(string: "code=\(code)&password=kort&again=kort"))
                #expect(short.status == .badRequest && short.text.contains("minst 10 tegn"))
                let differ = try await client.execute(uri: "/setup", method: .post, headers: Self.form,
                                                      body: ByteBuffer(string: "code=\(code)&password=riktig+hest+batteri&again=riktig+hest"))
                #expect(differ.status == .badRequest && differ.text.contains("ikke like"))
                let done = try await client.execute(uri: "/setup", method: .post, headers: Self.form,
                                                    body: ByteBuffer(string: "code=\(code.lowercased())&password=riktig+hest+batteri&again=riktig+hest+batteri"))
                #expect(done.status == .seeOther && done.headers[.location] == "/")
                let cookie = try #require(done.headers[.setCookie])
                #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
                let home = try await client.execute(uri: "/", method: .get, headers: [.cookie: String(cookie.prefix { $0 != ";" })])
                #expect(home.status == .ok && home.text.contains("Innkalling Ortopedisk poliklinikk"))
                // Once set, the first-run page is closed; the password is changed from the command line.
                let again = try await client.execute(uri: "/setup", method: .post, headers: Self.form,
                                                     body: ByteBuffer(string: "code=\(code)&password=en+annen+lang+en&again=en+annen+lang+en"))
                #expect(again.status == .forbidden)
                #expect(try await client.execute(uri: "/setup", method: .get).headers[.location] == "/login")
            }
            let stored = try #require(try fixture.library.accounts.webPasswordHash())
            #expect(stored.hasPrefix("$2") && !stored.contains("riktig"), "bcrypt, never the password")
        }
    }

    @Test func wrongPasswordsAreSlowedDown() async throws {
        try await withWebDirectory { dir in
            // The time stands still here, so the test does not depend on how fast the machine is.
            let now = Date()
            let fixture = try WebFixture(directory: dir, clock: { now })
            try await fixture.server.setPassword(WebFixture.password, again: WebFixture.password)
            try await fixture.server.application().test(.router) { client in
                for _ in 0..<5 {
                    let wrong = try await client.execute(uri: "/login", method: .post, headers: Self.form,
                                                         body: ByteBuffer(string: "password=gjetning+1234"))
                    #expect(wrong.status == .unauthorized && wrong.text.contains("Feil passord"))
                    #expect(wrong.headers[.setCookie] == nil)
                }
                let blocked = try await client.execute(uri: "/login", method: .post, headers: Self.form,
                                                       body: ByteBuffer(string: "password=riktig+hest+batteri"))
                #expect(blocked.status == .tooManyRequests && blocked.text.contains("Vent"), "even the right one waits")
            }
        }
    }

    @Test func aPasswordStoredAtAnotherCostIsHashedAgainAtTheNextSignIn() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            // As an older version stored it: the same password at another bcrypt cost.
            try fixture.library.accounts.setWebPasswordHash(Bcrypt.hash(WebFixture.password, cost: 5))
            #expect(WebServer.bcryptCost(of: try #require(try fixture.library.accounts.webPasswordHash())) == 5)
            let signedIn = NIOLockedValueBox("")
            try await fixture.server.application().test(.router) { client in
                let wrong = try await client.execute(uri: "/login", method: .post, headers: Self.form,
                                                     body: ByteBuffer(string: "password=gjetning+1234"))
                #expect(wrong.status == .unauthorized)
                #expect(WebServer.bcryptCost(of: try #require(try fixture.library.accounts.webPasswordHash())) == 5,
                        "a wrong password changes nothing")
                let right = try await client.execute(uri: "/login", method: .post, headers: Self.form,
                                                     body: ByteBuffer(string: "password=riktig+hest+batteri"))
                #expect(right.status == .seeOther)
                signedIn.withLockedValue { $0 = String((right.headers[.setCookie] ?? "").prefix { $0 != ";" }) }
            }
            // Hashed again in the background, after the answer.
            var cost: UInt8?
            for _ in 0..<100 {
                cost = WebServer.bcryptCost(of: try #require(try fixture.library.accounts.webPasswordHash()))
                if cost == 4 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(cost == 4, "the fixture's cost")
            let stored = try #require(try fixture.library.accounts.webPasswordHash())
            #expect(Bcrypt.verify(WebFixture.password, hash: stored))
            #expect(WebServer.bcryptCost(of: "$2b$11$abcdefghijklmnopqrstuv") == 11 && WebServer.bcryptCost(of: "sha256:abc") == nil)
            // The browser that just signed in stays signed in.
            try await fixture.server.application().test(.router) { client in
                let page = try await client.execute(uri: "/", method: .get, headers: [.cookie: signedIn.withLockedValue { $0 }])
                #expect(page.status == .ok, "signed in still after the hash was made again")
            }
        }
    }

    @Test func changesNeedTheTokenAndThisSite() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, browser in
                let headers = browser.form
                for body in ["", "_csrf=feil", "_csrf="] {
                    let refused = try await client.execute(uri: "/logout", method: .post, headers: headers, body: ByteBuffer(string: body))
                    #expect(refused.status == .forbidden, "\(body)")
                }
                var elsewhere = headers
                elsewhere[.origin] = "https://angriper.example"
                let crossSite = try await client.execute(uri: "/logout", method: .post, headers: elsewhere,
                                                         body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(crossSite.status == .forbidden)
                #expect(try await client.execute(uri: "/", method: .get, headers: browser.headers).status == .ok, "still signed in")
                let out = try await client.execute(uri: "/logout", method: .post, headers: headers,
                                                   body: ByteBuffer(string: "_csrf=\(browser.csrf)"))
                #expect(out.status == .seeOther && out.headers[.setCookie]?.contains("Max-Age=0") == true)
                #expect(try await client.execute(uri: "/", method: .get, headers: browser.headers).status == .seeOther,
                        "the old cookie no longer works")
            }
        }
    }

    @Test func libraryFiltersSearchAndADocument() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, browser in
                let home = try await client.execute(uri: "/", method: .get, headers: browser.headers)
                #expect(home.text.contains("2 dokumenter") && home.text.contains("class=\"badge\">Epikrise"))
                #expect(home.headers[.cacheControl] == "no-store" && home.headers[.contentSecurityPolicy] == SecurityHeaders.policy)
                let epikrise = home.text.range(of: "Epikrise")!.lowerBound, innkalling = home.text.range(of: "Innkalling Ortopedisk")!.lowerBound
                #expect(epikrise < innkalling, "newest first")
                let filtered = try await client.execute(uri: "/?type=innkalling&from=2024-01-01", method: .get, headers: browser.headers)
                #expect(filtered.text.contains("1 dokument<") && !filtered.text.contains("Hjerteavdelingen"))
                // The person the list shows as unknown can be chosen as a filter.
                let unknown = try await client.execute(uri: "/?person=Ukjent", method: .get, headers: browser.headers)
                #expect(unknown.text.contains("1 dokument<") && unknown.text.contains("Ortopedisk"))
                let none = try await client.execute(uri: "/?type=vedtak", method: .get, headers: browser.headers)
                #expect(none.text.contains("Ingen dokumenter passer til disse filtrene") && !none.text.contains("ennå"))
                for bad in ["/?type=brev", "/?from=2024-3-5", "/?to=i+morgen"] {
                    #expect(try await client.execute(uri: bad, method: .get, headers: browser.headers).status == .badRequest, "\(bad)")
                }
                let search = try await client.execute(uri: "/search?q=kne", method: .get, headers: browser.headers)
                #expect(search.text.contains("<mark>kne</mark>") && search.text.contains("/documents/a1a1a1a1a1"))
                let nothing = try await client.execute(uri: "/search?q=%22", method: .get, headers: browser.headers)
                #expect(nothing.status == .ok && !nothing.text.contains("SQLite"))

                let page = try await client.execute(uri: "/documents/b2b2b2b2b2", method: .get, headers: browser.headers)
                #expect(page.status == .ok && page.text.contains("Innlagt med brystsmerter"))
                #expect(!page.text.contains(WebFixture.number) && page.text.contains("170972 •••••"), "the number stays masked")
                #expect(!page.text.contains("<script>alert") && page.text.contains("&lt;script&gt;"), "text is escaped")
                let docx = try await client.execute(uri: "/documents/b2b2b2b2b2/files/0", method: .get, headers: browser.headers)
                #expect(docx.status == .ok && docx.headers[.contentDisposition]?.hasPrefix("attachment") == true)
                #expect(docx.text == "innhold av 2024-05-02 Epikrise Hjerteavdelingen.docx")
                for uri in ["/documents/ffffffffff", "/documents/..%2F..%2Fetc%2Fpasswd", "/documents/../../etc/passwd",
                            "/documents/b2b2b2b2b2/files/9", "/documents/b2b2b2b2b2/files/-1", "/documents/b2b2b2b2b2/files/..%2F0",
                            "/documents/zz", "/documents/b2b2"] {
                    let missing = try await client.execute(uri: uri, method: .get, headers: browser.headers)
                    #expect(missing.status == .notFound || (uri == "/documents/b2b2" && missing.status == .ok), "\(uri): \(missing.status)")
                }
                let english = try await client.execute(uri: "/", method: .get,
                                                       headers: [.cookie: browser.cookie, .acceptLanguage: "en-GB,en;q=0.9,nb;q=0.5"])
                #expect(english.text.contains("<html lang=\"en\">") && english.text.contains("Library"))
            }
        }
    }

    @Test func theAPIAnswersJSONWithTheNumberMasked() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            try await fixture.signedIn { client, browser in
                let list = try await client.execute(uri: "/api/v1/documents?limit=1", method: .get, headers: browser.headers)
                let listed = try #require(try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [String: Any])
                #expect(listed["total"] as? Int == 2 && (listed["documents"] as? [Any])?.count == 1)
                let search = try await client.execute(uri: "/api/v1/search?q=brystsmerter", method: .get, headers: browser.headers)
                let found = try #require(try JSONSerialization.jsonObject(with: Data(buffer: search.body)) as? [String: Any])
                #expect(found["total"] as? Int == 1)
                let empty = try await client.execute(uri: "/api/v1/search?q=", method: .get, headers: browser.headers)
                #expect(empty.status == .badRequest && empty.text.contains("\"error\""))
                let one = try await client.execute(uri: "/api/v1/documents/b2b2b2b2b2", method: .get, headers: browser.headers)
                #expect(one.status == .ok && one.headers[.contentType]?.hasPrefix("application/json") == true)
                #expect(!one.text.contains(WebFixture.number) && one.text.contains("Ola Nordmann"))
                #expect(try await client.execute(uri: "/api/v1/documents/ffffffffff", method: .get, headers: browser.headers).status == .notFound)
            }
        }
    }

    @Test func anIdleSessionEndsAndTheLANNeedsAPassword() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            let start = Date()
            let session = try fixture.library.accounts.startWebSession(now: start)
            #expect(try fixture.library.accounts.webSession(token: session.token, idle: 60, now: start.addingTimeInterval(59)) != nil)
            #expect(try fixture.library.accounts.webSession(token: session.token, idle: 60, now: start.addingTimeInterval(118)) != nil,
                    "each use starts the idle time again")
            #expect(try fixture.library.accounts.webSession(token: session.token, idle: 60, now: start.addingTimeInterval(179)) == nil)
            #expect(try fixture.library.accounts.webSession(token: session.token, idle: 60, now: start.addingTimeInterval(180)) == nil, "ended")
            #expect(try fixture.library.accounts.webSession(token: "", idle: 60) == nil)

            let lan = try WebServer(household: Household(library: fixture.library), options: .init(host: "0.0.0.0", port: 8080))
            await #expect(throws: WebFailure.self) { try await lan.check() }
            try await WebServer(household: Household(library: fixture.library)).check()
            try await fixture.server.setPassword(WebFixture.password, again: WebFixture.password)
            try await lan.check()
        }
    }
}
