import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// A web app over a new library holding two letters, and a signed-in client's cookie and token.
struct WebFixture {
    static let password = "riktig hest batteri"
    /// A made-up fødselsnummer printed in the epikrise (valid control digits).
    static let number = "17097243859"

    let directory: URL
    let library: Library
    private(set) var server: WebServer

    /// The inbox uploads are handed to.
    var inbox: URL { directory.appendingPathComponent("bibliotek/Innboks", isDirectory: true).standardizedFileURL }

    /// `port` 0 for a live server on a free port (`.live` tests).
    init(directory: URL, idleLock: TimeInterval = 15 * 60, uploads: Bool = true, port: Int = 8080,
         clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.directory = directory
        library = try Library.open(LibraryLocation(directory: directory.appendingPathComponent("bibliotek")))
        var options = WebServer.Options(
            port: port, idleLock: idleLock, passwordCost: 4,
            inbox: uploads ? directory.appendingPathComponent("bibliotek/Innboks", isDirectory: true).standardizedFileURL : nil)
        options.clock = clock
        // A wrong password is answered at once here (the pause is the throttle's, tested on its own).
        options.pause = { _ in }
        server = try WebServer(household: Household(library: library), options: options)
        _ = try FamilyStore.open(library: library.location).add(name: "Kari Nordmann")
        _ = try FamilyStore.open(library: library.location).add(name: "Ola Nordmann")
        // Read with an unknown person and one word read poorly: waits for review.
        try file(sha: String(repeating: "a1", count: 32), title: "2024-03-15 Innkalling Ortopedisk poliklinikk",
                 type: .innkalling, person: nil, date: "2024-03-15",
                 text: "Innkalling til time ved Ortopedisk poliklinikk.\nDu har fått time til MR av venstre kne.",
                 needsReview: ["person"], lowConfidence: [LibraryDocument.TextRange(start: 9, length: 3)],
                 confidence: ["person": 0.4, "docType": 0.93])
        try file(sha: String(repeating: "b2", count: 32), title: "2024-05-02 Epikrise Hjerteavdelingen",
                 type: .epikrise, person: "Ola Nordmann", date: "2024-05-02",
                 text: "Epikrise\nPasient: Ola Nordmann, f.nr. \(Self.number)\nInnlagt med brystsmerter <script>alert(1)</script>.")
    }

    func file(sha: String, title: String, type: DocumentType, person: String?, date: String, text: String,
                      needsReview: [String] = [], lowConfidence: [LibraryDocument.TextRange] = [],
                      confidence: [String: Double]? = nil) throws {
        var document = LibraryDocument(sha256: sha, sourceName: "brev.jpg", title: title, docType: type, person: person,
                                       familyMember: person, institution: "Vestvik sykehus", documentDate: date,
                                       needsReview: needsReview, text: text, lowConfidence: lowConfidence)
        document.fieldConfidence = confidence
        let folder = library.defaultArchiveRoot.appendingPathComponent(person ?? "Ukjent person")
        let docx = folder.appendingPathComponent("Dokumenter/\(title).docx")
        let image = folder.appendingPathComponent("Bilder/\(title).jpeg")
        _ = try library.documents.file(document) { reservation in
            try reservation.reserve([docx, image])
            for url in [docx, image] {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data("innhold av \(url.lastPathComponent)".utf8).write(to: url)
            }
            return [ArchivedFile(kind: .docx, path: docx.path), ArchivedFile(kind: .image, page: 1, path: image.path)]
        }
    }
}

/// A signed-in browser: its cookie and the CSRF token from a page.
struct Browser {
    var cookie: String
    var csrf: String

    var headers: HTTPFields { [.cookie: cookie] }
    /// For posting a form (the token goes in the body as `_csrf`).
    var form: HTTPFields { [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"] }
    /// For a script's request: the token in `X-CSRF-Token`.
    var script: HTTPFields { [.cookie: cookie, .csrfToken: csrf] }

    /// Signs in with the fixture's password (set first) and reads the token from the library page.
    static func signIn(_ client: some TestClientProtocol) async throws -> Browser {
        let response = try await client.execute(uri: "/login", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                                                body: ByteBuffer(string: "password=" + WebFixture.password.replacingOccurrences(of: " ", with: "+")))
        #expect(response.status == .seeOther)
        let setCookie = try #require(response.headers[.setCookie])
        let cookie = String(setCookie.prefix { $0 != ";" })
        let page = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie])
        let html = String(buffer: page.body)
        let marker = "name=\"_csrf\" value=\""
        let start = try #require(html.range(of: marker)).upperBound
        return Browser(cookie: cookie, csrf: String(html[start...].prefix { $0 != "\"" }))
    }
}

extension WebFixture {
    /// Sets the password, serves the app in process and signs a browser in.
    func signedIn(_ body: @escaping @Sendable (any TestClientProtocol, Browser) async throws -> Void) async throws {
        try await server.setPassword(Self.password, again: Self.password)
        try await server.application().test(.router) { client in
            try await body(client, try await Browser.signIn(client))
        }
    }
}

func withWebDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-web-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

extension TestResponse {
    var text: String { String(buffer: body) }
}
