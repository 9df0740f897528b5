import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Mustache

/// A household member's timeline as the template shows it: upcoming appointments, the areas to
/// filter by, and the episodes (newest first) with their letters (oldest first), as plain values
/// the template escapes.
struct TimelineView {
    /// What the address asks for: `fag` (an area, ``Plan/noArea`` for letters without one),
    /// `antall` (episodes shown) and `utskrift` (the view for printing).
    struct Request: Sendable {
        let memberID: Int
        let area: String?
        let shown: Int
        let print: Bool
        let step: Int

        init(_ query: WebForm, memberID: Int, step: Int) {
            self.memberID = memberID
            self.step = step
            area = query.value("fag")
            shown = min(10 * step, max(1, Int(query.value("antall") ?? "") ?? step))
            print = query.value("utskrift") == "1"
        }

        /// This timeline's address with the area, the number shown and the print view as given
        /// (each, when not given, as asked now).
        func link(area: String?? = nil, shown: Int? = nil, print: Bool? = nil) -> String {
            var items: [(String, String)] = []
            if let area = area ?? self.area { items.append(("fag", area)) }
            let count = shown ?? self.shown
            if count != step { items.append(("antall", String(count))) }
            if print ?? self.print { items.append(("utskrift", "1")) }
            let query = WebForm("").query(keeping: [], adding: items)
            return "/family/\(memberID)/timeline" + (query.isEmpty ? "" : "?" + query)
        }
    }

    /// A member's letters gathered into episodes (``EpisodeRule``), newest first, and the areas
    /// they fall in: what every request for the timeline starts from, the same for every filter
    /// and every user (``TimelineCache`` keeps it).
    struct Gathered: Sendable {
        let episodes: [Episode]
        /// Each area with its letters, most letters first.
        let areas: [(key: String, area: String?, letters: Int)]
        let letters: Int
        /// True when the member has more letters than were gathered.
        let capped: Bool

        init(_ entries: [TimelineEntry], capped: Bool, rule: EpisodeRule = .standard) {
            let letters = entries.map {
                EpisodeLetter(id: $0.row, date: CalendarDate(iso: $0.documentDate) ?? .fallback,
                              type: DocumentType(rawValue: $0.docType) ?? .annet, specialty: $0.specialty, sender: $0.institution)
            }
            episodes = rule.episodes(letters)
            var counts: [String: (area: String?, letters: Int)] = [:]
            for episode in episodes {
                counts[episode.area ?? Plan.noArea, default: (episode.area, 0)].letters += episode.letters.count
            }
            areas = counts.map { (key: $0.key, area: $0.value.area, letters: $0.value.letters) }
                .sorted { $0.letters != $1.letters ? $0.letters > $1.letters : $0.key < $1.key }
            self.letters = letters.count
            self.capped = capped
        }
    }

    /// What one request shows of the gathered episodes: those the filter keeps, as many as asked.
    struct Plan: Sendable {
        /// The filter's value for letters in no area.
        static let noArea = "uten"
        /// Letters shown of one episode at most (its newest); the rest are a link to the library away.
        /// Ten keep twenty episodes an overview a phone shows quickly (a page of long episodes was
        /// 160 KB and 487 thumbnails at 30).
        static let lettersShown = 10
        /// Each area with its letters, most letters first.
        let areas: [(key: String, area: String?, letters: Int)]
        let letters: Int
        let episodes: Int
        /// The episodes the filter keeps, and how many there are.
        let shown: [Episode]
        let matching: Int

        init(_ gathered: Gathered, request: Request) {
            areas = gathered.areas
            letters = gathered.letters
            episodes = gathered.episodes.count
            let kept = request.area.map { asked in gathered.episodes.filter { ($0.area ?? Self.noArea) == asked } } ?? gathered.episodes
            matching = kept.count
            shown = Array(kept.prefix(request.shown))
        }

        /// The letters shown of an episode: its newest ``lettersShown``, oldest first.
        static func shownLetters(_ episode: Episode) -> ArraySlice<EpisodeLetter> { episode.letters.suffix(lettersShown) }

        /// The library rows of the letters shown.
        var shownRows: [Int] { shown.flatMap { Self.shownLetters($0).map(\.id) } }
    }

    /// What the route read for the page.
    struct Found: Sendable {
        let member: String
        let plan: Plan
        let summaries: [Int: DocumentSummary]
        let appointments: [StoredAppointment]
        /// True when the member has more letters than the timeline gathers.
        let capped: Bool
    }

    struct Upcoming {
        let when: String
        let from: String?
        let place: String?
        let id: String
        let title: String
    }

    struct AreaLink {
        let label: String
        let link: String
        let current: Bool
    }

    struct EpisodeItem {
        let anchor: String
        let area: String
        let period: String
        let senders: String?
        let count: String
        let letters: [DocumentRow]
        /// How many earlier letters are left out, and the library's list of the episode's days.
        let earlier: [String: String]?
    }

    let member: String
    let print: Bool
    let summary: String?
    let screenLink: String
    let printLink: String
    let libraryLink: String
    /// «Prøvesvar»: the member's lab values over time (``LabsView``).
    let labsLink: String
    /// «Del med legen» with the member's letters listed to choose from.
    let shareLink: String
    let upcoming: [Upcoming]
    let hasUpcoming: Bool
    let areas: [AreaLink]
    let hasAreas: Bool
    let episodes: [EpisodeItem]
    let emptyText: String?
    let moreLink: String?
    let cappedText: String?
    let printedOn: String

    init(_ found: Found, request: Request, words: Words, today: CalendarDate = CalendarDate.today() ?? .fallback) {
        let plan = found.plan
        member = found.member
        print = request.print
        summary = plan.letters == 0 ? nil : words.language.count(plan.letters, ("brev", "letter"), ("brev", "letters"))
            + words.text(" i ", " in ") + words.language.count(plan.episodes, ("forløp", "episode"), ("forløp", "episodes"))
        screenLink = request.link(print: false)
        printLink = request.link(print: true)
        libraryLink = "/?" + WebForm("").query(keeping: [], adding: [("person", found.member)])
        labsLink = "/family/\(request.memberID)/provesvar"
        shareLink = "/del/ny?" + WebForm("").query(keeping: [], adding: [("person", found.member)])
        upcoming = found.appointments.map { stored in
            let appointment = stored.appointment
            return Upcoming(
                when: AppointmentsView.when(appointment, words: words),
                from: [stored.specialty, stored.sender].compactMap { $0 }.joined(separator: ", ").nonEmpty,
                place: appointment.place, id: stored.documentID, title: stored.documentTitle)
        }
        hasUpcoming = !upcoming.isEmpty
        let label = { (area: String?) in area ?? words["timelineNoArea"] }
        areas = [AreaLink(label: words["timelineAllAreas"] + " (\(plan.letters))", link: request.link(area: .some(nil), shown: request.step),
                          current: request.area == nil)]
            + plan.areas.map { AreaLink(label: label($0.area) + " (\($0.letters))", link: request.link(area: $0.key, shown: request.step),
                                        current: request.area == $0.key) }
        hasAreas = plan.areas.count > 1 || request.area != nil
        episodes = plan.shown.enumerated().map { index, episode in
            let period = episode.first == episode.last ? words.date(episode.first.iso)
                : "\(words.date(episode.first.iso)) – \(words.date(episode.last.iso))"
            return EpisodeItem(anchor: "forlop-\(index + 1)", area: label(episode.area), period: period,
                               senders: episode.senders.joined(separator: ", ").nonEmpty,
                               count: words.language.count(episode.letters.count, ("brev", "letter"), ("brev", "letters")),
                               letters: Plan.shownLetters(episode).compactMap { found.summaries[$0.id] }.map { DocumentRow($0, words: words) },
                               earlier: Self.earlier(episode, member: found.member, words: words))
        }
        emptyText = plan.letters == 0 ? words.text("Ingen brev er arkivert om \(found.member) ennå.",
                                                   "No letters about \(found.member) are filed yet.")
            : plan.shown.isEmpty ? words.text("Ingen forløp i dette fagområdet.", "No episodes in this specialty.") : nil
        moreLink = plan.matching > plan.shown.count ? request.link(shown: request.shown + request.step) : nil
        cappedText = found.capped ? words.text("Tidslinjen viser de \(WebServer.timelineLetters) nyeste brevene. Eldre brev finner du i biblioteket.",
                                               "The timeline shows the \(WebServer.timelineLetters) newest letters. Older ones are in the library list.") : nil
        printedOn = words.text("Skrevet ut \(today.norwegian) fra Arkivator.", "Printed \(today.iso) from Arkivator.")
    }
}

extension TimelineView {
    /// For an episode of more letters than are shown: how many are left out, and the library
    /// filtered to the member and the episode's days.
    static func earlier(_ episode: Episode, member: String, words: Words) -> [String: String]? {
        let left = episode.letters.count - Plan.lettersShown
        guard left > 0 else { return nil }
        return ["text": words.text("\(left) eldre brev i forløpet vises ikke her.", "\(left) earlier letters of this episode are not shown here."),
                "link": "/?" + WebForm("").query(keeping: [], adding: [("person", member), ("from", episode.first.iso),
                                                                        ("to", episode.last.iso)])]
    }
}

// The timeline's values handed to the template by name, as every view model does (see TemplateValues).

extension TimelineView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "member": member
        case "print": print
        case "summary": summary
        case "screenLink": screenLink
        case "printLink": printLink
        case "libraryLink": libraryLink
        case "labsLink": labsLink
        case "shareLink": shareLink
        case "upcoming": upcoming
        case "hasUpcoming": hasUpcoming
        case "areas": areas
        case "hasAreas": hasAreas
        case "episodes": episodes
        case "emptyText": emptyText
        case "moreLink": moreLink
        case "cappedText": cappedText
        case "printedOn": printedOn
        default: nil
        }
    }
}

extension TimelineView.Upcoming: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "when": when
        case "from": from
        case "place": place
        case "id": id
        case "title": title
        default: nil
        }
    }
}

extension TimelineView.AreaLink: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "link": link
        case "current": current
        default: nil
        }
    }
}

extension TimelineView.EpisodeItem: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "anchor": anchor
        case "area": area
        case "period": period
        case "senders": senders
        case "count": count
        case "letters": letters
        case "earlier": earlier
        default: nil
        }
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
