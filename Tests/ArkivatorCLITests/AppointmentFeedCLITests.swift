import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

/// `arkivator appointments --feed NAME` and `--revoke-feed NAME`: a member's calendar feed made,
/// shown as existing (never printed again), replaced and turned off.
@Suite struct AppointmentFeedCLITests {
    @Test func makesShowsReplacesAndRevokesAFeed() throws {
        try withTemporaryDirectory { directory in
            let libraryURL = directory.appendingPathComponent("bibliotek")
            func library() throws -> Library { try Library.open(LibraryLocation(directory: libraryURL), environment: [:]) }
            try library().family { _ = try $0.add(name: "Kari Nordmann") }

            let made = try CLI.run(["appointments", "--feed", "kari nordmann", "--address", "https://arkiv.hjemme.no/"], library: libraryURL)
            #expect(made.status == 0, "\(made.stderr)")
            let address = try #require(made.lines.first { $0.hasPrefix("https://arkiv.hjemme.no/kalender/") })
            let secret = String(address.dropFirst("https://arkiv.hjemme.no/kalender/".count).dropLast(".ics".count))
            #expect(made.lines.contains("webcal://arkiv.hjemme.no/kalender/\(secret).ics"))
            #expect(try library().calendar.calendarFeed(secret: secret)?.feed.member == "Kari Nordmann")

            // Asked again: it exists, and the secret is not printed (only its hash is kept).
            // A part of the name finds the member as `--person` does; a part two names hold says so.
            let shown = try CLI.run(["appointments", "--feed", "Kari"], library: libraryURL)
            #expect(shown.status == 0 && shown.stdout.contains("har en kalenderadresse") && !shown.stdout.contains(secret))
            #expect(try library().calendar.calendarFeed(secret: secret) != nil)
            try library().family { _ = try $0.add(name: "Kari Hansen") }
            let two = try CLI.run(["appointments", "--feed", "kari"], library: libraryURL)
            #expect(two.status == 1 && two.stderr.contains("passer på flere i familien") && two.stderr.contains("Kari Hansen"), "\(two.stderr)")

            let replaced = try CLI.run(["appointments", "--feed", "Kari Nordmann", "--new-address"], library: libraryURL)
            #expect(replaced.status == 0 && replaced.stdout.contains("/kalender/") && replaced.stdout.contains("virker ikke lenger"))
            #expect(try library().calendar.calendarFeed(secret: secret) == nil)

            let revoked = try CLI.run(["appointments", "--revoke-feed", "Kari Nordmann"], library: libraryURL)
            #expect(revoked.status == 0 && revoked.stdout.contains("slått av"))
            #expect(try library().calendar.calendarFeeds().isEmpty)

            let nobody = try CLI.run(["appointments", "--feed", "Per"], library: libraryURL)
            #expect(nobody.status == 1 && nobody.stderr.contains("Fant ingen i familien"))
            let both = try CLI.run(["appointments", "--feed", "Kari Nordmann", "--revoke-feed", "Kari Nordmann"], library: libraryURL)
            #expect(both.status != 0)
        }
    }
}
