import ArkivatorCore
import ArkivatorLibrary
import Foundation

extension Arkivator.Appointments {
    /// `--feed NAME` and `--revoke-feed NAME`: a household member's calendar feed, the secret
    /// address a phone's calendar subscribes to (served by `arkivator serve`). The address is
    /// printed only when it is made (the library keeps only its hash); `--new-address` replaces it.
    enum Feed {
        /// The lines to print for `--feed`.
        static func show(_ name: String, replace: Bool, address: String?, in library: Library) throws -> [UserMessage] {
            let member = try Self.member(name, in: library)
            let existing = try library.calendar.calendarFeeds().first(where: { $0.memberID == member.id })
            if !replace, let feed = existing {
                let fetched = feed.lastFetched.map { UserMessage(nb: "sist hentet \($0.prefix(10))", en: "last fetched \($0.prefix(10))") }
                    ?? UserMessage(nb: "ikke hentet ennå", en: "not fetched yet")
                return [UserMessage(
                    nb: "\(member.name) har en kalenderadresse fra \(feed.createdAt.prefix(10)) (\(fetched.norwegian)). Den vises bare når den lages; "
                        + "lag en ny med --feed \"\(member.name)\" --new-address (den gamle slutter da å virke).",
                    en: "\(member.name) has a calendar address from \(feed.createdAt.prefix(10)) (\(fetched.english)). It is shown only when made; "
                        + "make a new one with --feed \"\(member.name)\" --new-address (the old one then stops working).")]
            }
            let path = CalendarStore.calendarFeedPath(try library.calendar.createCalendarFeed(member: member.id))
            library.audit.recordAtMachine(.feedMade, detail: "familiemedlem \(member.id)")
            var lines = [UserMessage(
                nb: "Kalenderadressen til \(member.name) (vises bare nå; legg den til i telefonens kalender som abonnement):",
                en: "The calendar address for \(member.name) (shown only now; add it to the phone's calendar as a subscription):")]
            if let address {
                let base = address.hasSuffix("/") ? String(address.dropLast()) : address
                lines.append(UserMessage(nb: base + path, en: base + path))
                if let host = URL(string: base)?.host {
                    let port = URL(string: base)?.port.map { ":\($0)" } ?? ""
                    lines.append(UserMessage(nb: "webcal://\(host)\(port)\(path)", en: "webcal://\(host)\(port)\(path)"))
                }
            } else {
                lines.append(UserMessage(nb: path, en: path))
                lines.append(UserMessage(
                    nb: "Sett adressen telefonen når «arkivator serve» på foran, for eksempel https://arkiv.hjemme.no\(path), eller gi den med --address.",
                    en: "Put the address the phone reaches `arkivator serve` at in front, for example https://arkiv.example.org\(path), or give it with --address."))
            }
            if existing != nil { lines.append(UserMessage(nb: "Den gamle adressen virker ikke lenger.", en: "The old address no longer works.")) }
            return lines
        }

        /// The line to print for `--revoke-feed`.
        static func revoke(_ name: String, in library: Library) throws -> UserMessage {
            let member = try Self.member(name, in: library)
            guard try library.calendar.revokeCalendarFeed(member: member.id) else {
                return UserMessage(nb: "\(member.name) har ingen kalenderadresse; ingenting å slå av.",
                                   en: "\(member.name) has no calendar address; nothing to turn off.")
            }
            library.audit.recordAtMachine(.feedRevoked, detail: "familiemedlem \(member.id)")
            return UserMessage(nb: "Kalenderadressen til \(member.name) er slått av. Kalendere som abonnerte på den, får ingen nye timer.",
                               en: "The calendar address for \(member.name) is turned off. Calendars subscribed to it get no new appointments.")
        }

        /// The household member by name (any case) or id.
        static func member(_ name: String, in library: Library) throws -> FamilyMemberSummary {
            try library.familyMember(matching: name)
        }
    }
}
