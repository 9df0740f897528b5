import ArkivatorCore
@testable import ArkivatorLibrary
import Foundation
import Testing

/// Accounts, invites and the audit log as the library keeps them.
@Suite struct AccountStoreTests {
    @Test func anInviteWorksOnceAndExpiresAfterSevenDays() throws {
        try withLibrary { library, _ throws in
            _ = try library.family { try $0.add(name: "Kari Nordmann") }
            let now = Date()
            let (token, account) = try library.accounts.invite(name: "Mormor", role: .reader, members: ["kari nordmann"], now: now)
            #expect(account.members == ["Kari Nordmann"] && !account.joined)
            #expect(try library.accounts.invitedAccount(token, now: now.addingTimeInterval(6 * 86_400))?.name == "Mormor")
            #expect(try library.accounts.invitedAccount(token, now: now.addingTimeInterval(7 * 86_400 + 1)) == nil, "expired")
            #expect(try library.accounts.expiredInvite(token, now: now.addingTimeInterval(7 * 86_400 + 1))?.name == "Mormor", "named for the log")
            #expect(try library.accounts.expiredInvite(token, now: now) == nil && library.accounts.expiredInvite("gjettet") == nil)
            #expect(try library.accounts.acceptInvite(token, passwordHash: "x", now: now.addingTimeInterval(8 * 86_400)) == nil)
            let taken = try #require(try library.accounts.acceptInvite(token, passwordHash: "hash", now: now))
            #expect(taken.account.joined && taken.session.account == account.id)
            #expect(try library.accounts.acceptInvite(token, passwordHash: "other", now: now) == nil, "once")
            #expect(try library.accounts.account(named: "MORMOR")?.passwordHash == "hash")

            #expect(throws: AccountFailure.self) { try library.accounts.invite(name: "mormor", role: .reader, members: ["Kari Nordmann"]) }
            #expect(throws: AccountFailure.self) { try library.accounts.invite(name: "Ola", role: .reader, members: ["Per"]) }
            #expect(throws: AccountFailure.self) { try library.accounts.invite(name: "Ola", role: .reader, members: []) }
            #expect(throws: AccountFailure.self) { try library.accounts.invite(name: "eier", role: .reader, members: ["Kari Nordmann"]) }
        }
    }

    @Test func aDeviceTokenActsAsItsAccountAndGoesWithIt() throws {
        try withLibrary { library, _ throws in
            _ = try library.family { try $0.add(name: "Kari Nordmann") }
            let (_, account) = try library.accounts.invite(name: "Ola", role: .family, members: ["Kari Nordmann"])
            let owners = try library.accounts.createAPIToken(name: "skript")
            let olas = try library.accounts.createAPIToken(name: "Olas telefon", account: account.id)
            #expect(try library.accounts.apiTokenAccess(owners.token) == .owner)
            #expect(try library.accounts.apiTokenAccess(olas.token)?.members == ["Kari Nordmann"])
            let session = try library.accounts.startWebSession(account: account.id)
            try library.accounts.removeAccount(named: "ola")
            #expect(try library.accounts.apiTokenAccess(olas.token) == nil)
            #expect(try library.accounts.webSession(token: session.token, idle: 900) == nil)
            #expect(try library.accounts.apiTokenAccess(owners.token) == .owner)
        }
    }

    @Test func theOwnersNewPasswordSignsOutTheOwnerAlone() throws {
        try withLibrary { library, _ throws in
            _ = try library.family { try $0.add(name: "Kari Nordmann") }
            try library.accounts.setWebPasswordHash("first")
            let (_, account) = try library.accounts.invite(name: "Ola", role: .reader, members: ["Kari Nordmann"])
            let owners = try library.accounts.startWebSession(), olas = try library.accounts.startWebSession(account: account.id)
            #expect(try library.accounts.rehashWebPassword("first-again", replacing: "first"))
            #expect(try library.accounts.webSession(token: owners.token, idle: 900) != nil, "hashed again: no one signed out")
            #expect(try !library.accounts.rehashWebPassword("stale", replacing: "first"), "only in place of the hash it was made from")
            try library.accounts.setWebPasswordHash("second")
            #expect(try library.accounts.webSession(token: owners.token, idle: 900) == nil)
            #expect(try library.accounts.webSession(token: olas.token, idle: 900) != nil, "the account signs in with its own password")
        }
    }

    @Test func theAuditLogCannotBeChangedAndKeepsTwoYears() throws {
        try withLibrary { library, _ throws in
            let now = Date()
            try library.audit.record(.letterOpened, by: .owner, document: "abcdef1234", member: "Kari", device: "telefon")
            try library.audit.record(.signedIn, by: Access(account: 3, name: "Ola", role: .reader, members: ["Kari"]), device: "datamaskin",
                                     now: now.addingTimeInterval(-3 * 365 * 86_400))
            #expect(try library.audit.entries().count == 2)
            #expect(try library.audit.entries(account: "ola").map(\.action) == [.signedIn])
            #expect(try library.audit.entries(member: "kari").map(\.document) == ["abcdef1234"])
            try library.withDatabase { database in
                #expect(throws: (any Error).self) { try database.execute("UPDATE audit_log SET account = 'noen'") }
                #expect(throws: (any Error).self) { try database.execute("DELETE FROM audit_log") }
            }
            #expect(try library.audit.removeExpired(now: now) == 1, "only the line older than two years")
            #expect(try library.audit.entries().map(\.account) == ["eier"])
        }
    }
}
