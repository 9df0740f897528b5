import ArkivatorCore
@testable import ArkivatorLibrary
import Foundation
import Testing

/// The code from an app: RFC 6238's own test values, and the owner's code kept sealed, taken once.
@Suite struct TOTPTests {
    static let secret = Array("12345678901234567890".utf8)

    @Test func theCodesAreRFC6238s() {
        for (time, code) in [(59.0, "94287082"), (1_111_111_109, "07081804"), (1_234_567_890, "89005924"), (2_000_000_000, "69279037")] {
            #expect(TOTP.code(secret: Self.secret, counter: TOTP.timeStep(Date(timeIntervalSince1970: time)), digits: 8) == code)
        }
        #expect(TOTP.code(secret: Self.secret, counter: 1) == "287082")
        #expect(TOTP.base32(Array("foobar".utf8)) == "MZXW6YTBOI")
        #expect(TOTP.uri(secret: Self.secret, account: "eier").hasPrefix("otpauth://totp/Arkivator%3Aeier?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Arkivator"))
    }

    @Test func theOwnersCodeIsSetUpCheckedOnceAndTurnedOff() throws {
        try withLibrary { library, _ throws in
            #expect(throws: AccountFailure.self) { try library.accounts.beginTOTP() }
            try library.accounts.setWebPasswordHash("hash")
            let secret = try library.accounts.beginTOTP()
            #expect(try !library.accounts.totpEnabled())
            let now = Date()
            let code = { (date: Date) in TOTP.code(secret: secret, counter: TOTP.timeStep(date)) }
            #expect(try !library.accounts.confirmTOTP("000000", now: now) || code(now) == "000000")
            #expect(try library.accounts.confirmTOTP(code(now), now: now))
            #expect(try library.accounts.totpEnabled())
            #expect(try !library.accounts.checkTOTP(code(now), now: now), "the code that turned it on is used")
            let later = now.addingTimeInterval(60)
            #expect(try library.accounts.checkTOTP(code(later), now: later))
            #expect(try !library.accounts.checkTOTP(code(later), now: later), "a code works once")
            let muchLater = now.addingTimeInterval(600)
            #expect(try library.accounts.checkTOTP(code(muchLater.addingTimeInterval(-30)), now: muchLater), "a phone half a minute behind")
            #expect(try !library.accounts.checkTOTP(code(muchLater.addingTimeInterval(-300)), now: muchLater.addingTimeInterval(30)))
            try library.accounts.setWebPasswordHash("another")
            #expect(try library.accounts.totpEnabled(), "a new password keeps the code")
            try library.accounts.disableTOTP()
            #expect(try !library.accounts.totpEnabled())
        }
    }

    @Test func aRememberedBrowserOutlivesTheAppLockForThirtyDays() throws {
        try withLibrary { library, _ throws in
            let now = Date()
            let remembered = try library.accounts.startWebSession(remember: true, now: now)
            let plain = try library.accounts.startWebSession(now: now)
            let hourLater = now.addingTimeInterval(3600)
            try library.accounts.endIdleWebSessions(idle: 900, now: hourLater)
            #expect(try library.accounts.webSession(token: plain.token, idle: 900, now: hourLater) == nil)
            #expect(try library.accounts.webSession(token: remembered.token, idle: 900, now: hourLater) != nil)
            let monthLater = now.addingTimeInterval(31 * 86_400)
            #expect(try library.accounts.webSession(token: remembered.token, idle: 900, now: monthLater) == nil)
        }
    }
}
