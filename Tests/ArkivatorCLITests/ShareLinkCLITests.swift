import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// `arkivator share link`, `share list` and `share revoke`.
@Suite struct ShareLinkCLITests {
    @Test func makesListsAndRevokesALink() throws {
        try withTemporaryDirectory { directory in
            let libraryURL = directory.appendingPathComponent("bibliotek")
            do {
                let library = try Library.open(LibraryLocation(directory: libraryURL), environment: [:])
                try library.documents.record(["a", "b"].map { seed in
                    LibraryDocument(sha256: String(repeating: seed, count: 64), sourceName: "\(seed).jpg",
                                    title: "2025-01-02 Epikrise \(seed)", docType: .epikrise, person: "Kari Nordmann",
                                    familyMember: "Kari Nordmann", documentDate: "2025-01-02", text: "Epikrise \(seed)")
                })
            }
            let refused = try CLI.run(["share", "link", "aaaa", "--days", "3"], library: libraryURL)
            #expect(refused.status != 0 && refused.stderr.contains("--days må være 1, 7, 14 eller 30"))

            let made = try CLI.run(["share", "link", "aaaa", "bbbb", "--days", "7", "--url", "https://arkivator.example.no/"],
                                   library: libraryURL)
            #expect(made.status == 0, "\(made.stderr)")
            #expect(made.stderr.contains("Lenke 1 til 2 brev virker til"))
            let address = try #require(made.lines.last)
            #expect(address.wholeMatch(of: /https:\/\/arkivator\.example\.no\/delt\/[A-Za-z0-9_-]{43}/) != nil, "\(address)")

            let list = try CLI.run(["share", "list"], library: libraryURL)
            #expect(list.status == 0)
            #expect(list.lines.first?.hasPrefix("1  virker til ") == true && list.stdout.contains("åpnet 0 ganger"))
            #expect(list.stdout.contains("aaaaaaaaaa  2025-01-02 Epikrise a") && list.stdout.contains("bbbbbbbbbb"))

            let revoked = try CLI.run(["share", "revoke", address], library: libraryURL)
            #expect(revoked.status == 0 && revoked.stdout.contains("Lenke 1 er trukket tilbake"))
            #expect(try CLI.run(["share", "list"], library: libraryURL).lines.first?.hasPrefix("1  trukket tilbake") == true)
            let unknown = try CLI.run(["share", "revoke", "7"], library: libraryURL)
            #expect(unknown.status == 1 && unknown.stderr.contains("Fant ingen delingslenke «7»"))
        }
    }
}
