import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import TestSupport
import Testing

/// `arkivator serve` as a household runs it: a password set from the command line, letters
/// uploaded over HTTP, the server killed with SIGKILL right after it answered "received",
/// started again: every letter received is filed exactly once.
@Suite(.serialized) struct ServeCrashTests {
    /// A browser over real HTTP: the session cookie and the CSRF token.
    final class Session: @unchecked Sendable {
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let base: String
        var cookie = ""
        var csrf = ""

        init(port: Int) { base = "http://127.0.0.1:\(port)" }

        deinit { try? client.syncShutdown() }

        func send(_ method: HTTPMethod, _ path: String, body: [UInt8]? = nil, form: String? = nil) async throws
            -> (status: Int, headers: HTTPHeaders, text: String) {
            var request = HTTPClientRequest(url: base + path)
            request.method = method
            if !cookie.isEmpty { request.headers.add(name: "Cookie", value: cookie) }
            if !csrf.isEmpty { request.headers.add(name: "X-CSRF-Token", value: csrf) }
            if let form {
                request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                request.body = .bytes(ByteBuffer(string: form))
            } else if let body {
                request.body = .bytes(ByteBuffer(bytes: body))
            }
            let response = try await client.execute(request, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 4 << 20)
            return (Int(response.status.code), response.headers, String(buffer: bytes))
        }

        /// Waits for the server to answer, then signs in and reads the token.
        func signIn(password: String) async throws {
            for _ in 0..<300 {
                if (try? await send(.GET, "/login")) != nil { break }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            let login = try await send(.POST, "/login", form: "password=" + password.replacingOccurrences(of: " ", with: "+"))
            #expect(login.status == 303, "\(login.text)")
            cookie = String((login.headers.first(name: "Set-Cookie") ?? "").prefix { $0 != ";" })
            let page = try await send(.GET, "/upload")
            let marker = "name=\"csrf-token\" content=\""
            let start = try #require(page.text.range(of: marker)).upperBound
            csrf = String(page.text[start...].prefix { $0 != "\"" })
        }

        /// Uploads one page and hands it over; returns the upload's id once the server said "received".
        func upload(_ page: [UInt8]) async throws -> String {
            let made = try await send(.POST, "/api/v1/uploads")
            let id = try #require((try JSONSerialization.jsonObject(with: Data(made.text.utf8)) as? [String: Any])?["id"] as? String)
            #expect(try await send(.PUT, "/api/v1/uploads/\(id)/pages/1", body: page).status == 200)
            let done = try await send(.POST, "/api/v1/uploads/\(id)/done")
            #expect(done.status == 200 && done.text.contains("received"), "\(done.text)")
            return id
        }

        func status(_ id: String) async throws -> [String: Any] {
            let answer = try await send(.GET, "/api/v1/uploads/\(id)")
            return (try? JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any]) ?? [:]
        }
    }

    @Test func aLetterReceivedBeforeAKillIsFiledOnceAfterTheRestart() async throws {
        try await withWebDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek"), logs = dir.appendingPathComponent("logg")
            let password = "riktig hest batteri"
            // The password, from standard input as a script would give it.
            let setting = Process()
            setting.executableURL = CLI.executable
            setting.arguments = ["serve", "--set-password", "--library", library.path]
            setting.environment = CLI.environment()
            let input = Pipe()
            setting.standardInput = input
            setting.standardOutput = FileHandle.nullDevice
            try setting.run()
            input.fileHandleForWriting.write(Data((password + "\n").utf8))
            try input.fileHandleForWriting.close()
            setting.waitUntilExit()
            #expect(setting.terminationStatus == 0)

            let first = try Fixtures.bytes("clean.png"), second = try Fixtures.bytes("skew.jpg")
            let port = try ChildServer.freePort()
            let server = try CLI.start(["serve", "--listen", "127.0.0.1:\(port)"], library: library, logs: logs, name: "serve-1")
            let browser = Session(port: port)
            try await browser.signIn(password: password)
            let a = try await browser.upload(first)
            #expect(server.kill(), "killed with SIGKILL right after \"received\"")

            let again = try CLI.start(["serve", "--listen", "127.0.0.1:\(port)"], library: library, logs: logs, name: "serve-2")
            defer { _ = again.kill() }
            let after = Session(port: port)
            try await after.signIn(password: password)
            let b = try await after.upload(second)
            var statuses: [String: String] = [:]
            for _ in 0..<480 {
                statuses = [:]
                for id in [a, b] { statuses[id] = try await after.status(id)["status"] as? String }
                if statuses.values.allSatisfy({ ["done", "duplicate", "failed"].contains($0) }) { break }
                try await Task.sleep(nanoseconds: 500_000_000)
            }
            #expect(statuses == [a: "done", b: "done"], "\(statuses)\n\(again.stdout)\n\(again.stderr)")
            // The same letter again: recognised, not filed twice.
            let copy = try await after.upload(first)
            var copyStatus = ""
            for _ in 0..<240 {
                copyStatus = try await after.status(copy)["status"] as? String ?? ""
                if ["done", "duplicate", "failed"].contains(copyStatus) { break }
                try await Task.sleep(nanoseconds: 500_000_000)
            }
            #expect(copyStatus == "duplicate")

            sendSignal(again.process.processIdentifier, SIGTERM)
            #expect(again.wait(timeout: 60) == 0, "SIGTERM ends serve cleanly: \(again.stderr)")
            let listed = try CLI.run(["list", "--json"], library: library)
            let documents = try #require(try CLI.json(listed) as? [[String: Any]])
            #expect(documents.count == 2, "\(documents)")
            let staging = library.appendingPathComponent(".opplasting")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []).isEmpty, "no page left waiting")
        }
    }
}

/// HTTPS from the certificate and key files given: phones on the home network send no letter
/// in clear text, and the cookie is then `Secure`.
@Suite(.serialized) struct ServeTLSTests {
    @Test func serveSpeaksHTTPSWithTheGivenCertificate() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else {
            print("[ServeTLSTests] openssl is not installed: HTTPS is not checked")
            return
        }
        try await withWebDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek"), logs = dir.appendingPathComponent("logg")
            let cert = dir.appendingPathComponent("sertifikat.pem").path, key = dir.appendingPathComponent("nokkel.pem").path
            let openssl = Process()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                                 "-subj", "/CN=127.0.0.1"]
            openssl.standardOutput = FileHandle.nullDevice
            openssl.standardError = FileHandle.nullDevice
            try openssl.run()
            openssl.waitUntilExit()
            #expect(openssl.terminationStatus == 0)
            let wrong = try CLI.run(["serve", "--tls-cert", cert], library: library)
            #expect(wrong.status == 64 && wrong.stderr.contains("--tls-key"), "\(wrong.stderr)")

            let port = try ChildServer.freePort()
            let server = try CLI.start(["serve", "--listen", "127.0.0.1:\(port)", "--tls-cert", cert, "--tls-key", key],
                                       library: library, logs: logs, name: "serve-tls")
            defer { _ = server.kill() }
            var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateVerification = .none
            configuration.tlsConfiguration = tls
            let owner = ClientOwner(HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration))
            let client = owner.client
            var answer: HTTPClientResponse?
            for _ in 0..<300 {
                answer = try? await client.execute(HTTPClientRequest(url: "https://127.0.0.1:\(port)/login"), timeout: .seconds(5))
                if answer != nil { break }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            // No password yet: the first-run page, over HTTPS.
            #expect(answer?.status == .seeOther && answer?.headers.first(name: "Location") == "/setup", "\(server.stderr)")
            #expect(server.stdout.contains("https://127.0.0.1:\(port)/"))
            var setup = HTTPClientRequest(url: "https://127.0.0.1:\(port)/setup")
            setup.method = .POST
            setup.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            let code = try #require(server.stdout.range(of: #"[A-Z0-9]{4}-[A-Z0-9]{4}"#, options: .regularExpression).map { String(server.stdout[$0]) })
            setup.body = .bytes(ByteBuffer(string: "code=\(code)&password=riktig+hest+batteri&again=riktig+hest+batteri"))
            let signedIn = try await client.execute(setup, timeout: .seconds(30))
            #expect(signedIn.status == .seeOther && signedIn.headers.first(name: "Set-Cookie")?.contains("; Secure") == true)
            let plainOwner = ClientOwner(HTTPClient(eventLoopGroupProvider: .singleton))
            let plain = plainOwner.client
            let cleartext = try? await plain.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/login"), timeout: .seconds(5))
            #expect(cleartext == nil || cleartext?.status != .seeOther, "no answer in clear text")
        }
    }
}

/// Shuts its client down when released (a test may end early on a thrown error).
final class ClientOwner: @unchecked Sendable {
    let client: HTTPClient

    init(_ client: HTTPClient) { self.client = client }

    deinit { try? client.syncShutdown() }
}
