import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Testing

/// Share links in the library: only the token's hash kept, the chosen letters in order (a trashed
/// one left out, a purged one gone), expiry, revoking, and the openings.
@Suite struct ShareLinkStoreTests {
    @Test func aLinkOpensItsLettersUntilRevokedOrExpired() throws {
        try withLibrary { library, _ in
            try library.documents.record([Letters.innkalling, Letters.epikrise, Letters.labSvar])
            let now = Date()
            let made = try library.sharing.createShareLink([Letters.epikrise.shortID, Letters.innkalling.shortID, Letters.epikrise.shortID],
                                                   days: 14, now: now)
            #expect(made.link.letters.map(\.id) == [Letters.epikrise.shortID, Letters.innkalling.shortID])
            #expect(made.link.status(now: now) == .active)
            #expect(abs(made.link.expiresAt.timeIntervalSince(now) - 14 * 86_400) < 0.01)
            for file in [library.databaseURL, URL(fileURLWithPath: library.databaseURL.path + "-wal")] {
                let stored = (try? Data(contentsOf: file)) ?? Data()
                #expect(stored.range(of: Data(made.token.utf8)) == nil, "only the token's hash is kept")
            }

            guard case .open(let link, let letters) = try library.sharing.sharedLetters(token: made.token) else {
                Issue.record("the link does not open")
                return
            }
            #expect(link.id == made.link.id && letters.map(\.shortID) == [Letters.epikrise.shortID, Letters.innkalling.shortID])
            guard case .unknown = try library.sharing.sharedLetters(token: made.token + "x") else { Issue.record("a wrong token opens"); return }
            #expect(try library.sharing.shareLinkID(token: "https://arkivator.example/delt/\(made.token)") == made.link.id)

            // A letter put in the trash is left out; one purged is gone from the link.
            _ = try library.documents.delete(Letters.innkalling.shortID)
            guard case .open(_, let left) = try library.sharing.sharedLetters(token: made.token) else { Issue.record("closed"); return }
            #expect(left.map(\.shortID) == [Letters.epikrise.shortID])
            #expect(throws: LibraryFailure.self) { try library.sharing.createShareLink([Letters.innkalling.shortID]) }
            // A purged letter's pages stay in no share PDF.
            let pack = library.sharing.sharePackURL(made.link.id, letters: left)
            try FileManager.default.createDirectory(at: library.sharing.shareFolderURL, withIntermediateDirectories: true)
            try Data("%PDF".utf8).write(to: pack)
            _ = try library.documents.delete(Letters.innkalling.shortID, purge: true)
            #expect(!FileManager.default.fileExists(atPath: pack.path))
            #expect(try library.sharing.shareLink(made.link.id)?.letters.map(\.id) == [Letters.epikrise.shortID])

            try library.sharing.recordShareOpening(made.link.id, what: .page, client: "mobile · Safari", now: now)
            try library.sharing.recordShareOpening(made.link.id, what: .pdf, client: "mobile · Safari", now: now.addingTimeInterval(5))
            #expect(try library.sharing.shareLink(made.link.id)?.openings.map(\.what) == [.pdf, .page])

            #expect(try library.sharing.setShareLinkExpiry(made.link.id, to: now.addingTimeInterval(-1)))
            guard case .expired = try library.sharing.sharedLetters(token: made.token) else { Issue.record("not expired"); return }
            #expect(try library.sharing.revokeShareLink(made.link.id))
            guard case .revoked = try library.sharing.sharedLetters(token: made.token) else { Issue.record("not revoked"); return }
            #expect(try !library.sharing.revokeShareLink(999))

            #expect(throws: LibraryFailure.self) { try library.sharing.createShareLink([Letters.epikrise.shortID], days: 0) }
            #expect(throws: LibraryFailure.self) { try library.sharing.createShareLink([]) }
            #expect(try library.sharing.shareLinks().count == 1)
        }
    }

    /// The page a link opens hides what the share PDF hides: a number OCR split, when it is the
    /// letter's own (found whole elsewhere in it) or a household member's.
    @Test func aSharedLetterHidesItsOwnAndTheHouseholdsNumbersHoweverSplit() throws {
        try withLibrary { library, _ in
            let number = "17097243859", split = "1709 7243859"
            let own = Letters.letter("egen", "Epikrise", type: .epikrise, person: "Kari", institution: nil, date: "2024-02-01",
                                     text: "Pasient f.nr. \(number).\nKontroll av \(split) om tre uker.")
            let household = Letters.letter("hus", "Lab", type: .labSvar, person: "Kari", institution: nil, date: "2024-02-02",
                                           text: "Prøve merket \(split).")
            try library.documents.record([own, household])
            let made = try library.sharing.createShareLink([own.shortID, household.shortID])
            func texts() throws -> [String] {
                guard case .open(_, let letters) = try library.sharing.sharedLetters(token: made.token) else { return [] }
                return letters.map(\.text)
            }
            let before = try texts()
            #expect(before.count == 2 && !before[0].contains("43859") && before[0].contains("170972 •••••"), "\(before)")
            #expect(before[1].contains(split), "no household number known yet")

            try library.family { store in _ = try store.add(name: "Kari", fodselsnummer: number) }
            let after = try texts()
            #expect(after.count == 2 && after.allSatisfy { !$0.contains("43859") }, "\(after)")
        }
    }

    /// A PDF finished after its link was revoked, or after one of its letters was purged, is not kept.
    @Test func aPackFinishedAfterRevokingOrPurgingIsShredded() throws {
        try withLibrary { library, _ in
            try library.documents.record([Letters.innkalling, Letters.epikrise])
            try FileManager.default.createDirectory(at: library.sharing.shareFolderURL, withIntermediateDirectories: true)
            func pack(_ link: Int, _ letters: [LibraryDocument]) throws -> URL {
                let url = library.sharing.sharePackURL(link, letters: letters)
                try Data("%PDF".utf8).write(to: url)
                return url
            }
            let both = try library.sharing.createShareLink([Letters.innkalling.shortID, Letters.epikrise.shortID])
            guard case .open(_, let letters) = try library.sharing.sharedLetters(token: both.token) else { Issue.record("closed"); return }
            let kept = try pack(both.link.id, letters)
            #expect(try library.sharing.keepsSharePack(kept, link: both.link.id, letters: letters))
            #expect(FileManager.default.fileExists(atPath: kept.path))

            // Purged while the pages were read: the letter is no longer the link's.
            _ = try library.documents.delete(Letters.innkalling.shortID, purge: true)
            let late = try pack(both.link.id, letters)
            #expect(try !library.sharing.keepsSharePack(late, link: both.link.id, letters: letters))
            #expect(!FileManager.default.fileExists(atPath: late.path))

            let one = try library.sharing.createShareLink([Letters.epikrise.shortID])
            guard case .open(_, let shared) = try library.sharing.sharedLetters(token: one.token) else { Issue.record("closed"); return }
            try library.sharing.revokeShareLink(one.link.id)
            let revoked = try pack(one.link.id, shared)
            #expect(try !library.sharing.keepsSharePack(revoked, link: one.link.id, letters: shared))
            #expect(!FileManager.default.fileExists(atPath: revoked.path))
        }
    }
}
