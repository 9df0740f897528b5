import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Testing

/// Share links in the library: only the token's hash kept, the chosen letters in order (a trashed
/// one left out, a purged one gone), expiry, revoking, and the openings.
@Suite struct ShareLinkStoreTests {
    @Test func aLinkOpensItsLettersUntilRevokedOrExpired() throws {
        try withLibrary { library, _ in
            try library.record([Letters.innkalling, Letters.epikrise, Letters.labSvar])
            let now = Date()
            let made = try library.createShareLink([Letters.epikrise.shortID, Letters.innkalling.shortID, Letters.epikrise.shortID],
                                                   days: 14, now: now)
            #expect(made.link.letters.map(\.id) == [Letters.epikrise.shortID, Letters.innkalling.shortID])
            #expect(made.link.status(now: now) == .active)
            #expect(abs(made.link.expiresAt.timeIntervalSince(now) - 14 * 86_400) < 0.01)
            for file in [library.databaseURL, URL(fileURLWithPath: library.databaseURL.path + "-wal")] {
                let stored = (try? Data(contentsOf: file)) ?? Data()
                #expect(stored.range(of: Data(made.token.utf8)) == nil, "only the token's hash is kept")
            }

            guard case .open(let link, let letters) = try library.sharedLetters(token: made.token) else {
                Issue.record("the link does not open")
                return
            }
            #expect(link.id == made.link.id && letters.map(\.shortID) == [Letters.epikrise.shortID, Letters.innkalling.shortID])
            guard case .unknown = try library.sharedLetters(token: made.token + "x") else { Issue.record("a wrong token opens"); return }
            #expect(try library.shareLinkID(token: "https://arkivator.example/delt/\(made.token)") == made.link.id)

            // A letter put in the trash is left out; one purged is gone from the link.
            _ = try library.delete(Letters.innkalling.shortID)
            guard case .open(_, let left) = try library.sharedLetters(token: made.token) else { Issue.record("closed"); return }
            #expect(left.map(\.shortID) == [Letters.epikrise.shortID])
            #expect(throws: LibraryFailure.self) { try library.createShareLink([Letters.innkalling.shortID]) }
            // A purged letter's pages stay in no share PDF.
            let pack = library.sharePackURL(made.link.id, letters: left)
            try FileManager.default.createDirectory(at: library.shareFolderURL, withIntermediateDirectories: true)
            try Data("%PDF".utf8).write(to: pack)
            _ = try library.delete(Letters.innkalling.shortID, purge: true)
            #expect(!FileManager.default.fileExists(atPath: pack.path))
            #expect(try library.shareLink(made.link.id)?.letters.map(\.id) == [Letters.epikrise.shortID])

            try library.recordShareOpening(made.link.id, what: .page, client: "mobile · Safari", now: now)
            try library.recordShareOpening(made.link.id, what: .pdf, client: "mobile · Safari", now: now.addingTimeInterval(5))
            #expect(try library.shareLink(made.link.id)?.openings.map(\.what) == [.pdf, .page])

            #expect(try library.setShareLinkExpiry(made.link.id, to: now.addingTimeInterval(-1)))
            guard case .expired = try library.sharedLetters(token: made.token) else { Issue.record("not expired"); return }
            #expect(try library.revokeShareLink(made.link.id))
            guard case .revoked = try library.sharedLetters(token: made.token) else { Issue.record("not revoked"); return }
            #expect(try !library.revokeShareLink(999))

            #expect(throws: LibraryFailure.self) { try library.createShareLink([Letters.epikrise.shortID], days: 0) }
            #expect(throws: LibraryFailure.self) { try library.createShareLink([]) }
            #expect(try library.shareLinks().count == 1)
        }
    }
}
