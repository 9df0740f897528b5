import ArkivatorApp
import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Mustache

/// A letter as the share pages list it (never its text): id, title, type, date, person, sender.
struct ShareLetterRow {
    let id: String
    let title: String
    let typeLabel: String
    let date: String
    let person: String
    let institution: String?
    let checked: Bool

    init(_ document: LibraryDocument, checked: Bool, words: Words) {
        id = document.shortID
        title = document.masked.title
        typeLabel = words.type(document.docType.rawValue)
        date = words.date(document.documentDate)
        person = words.person(document.shownPerson)
        institution = document.masked.institution
        self.checked = checked
    }

    init(_ summary: DocumentSummary, words: Words) {
        id = summary.id
        title = Redaction.redact(summary.title)
        typeLabel = words.type(summary.docType)
        date = words.date(summary.documentDate)
        person = words.person(summary.shownPerson)
        institution = summary.institution.map(Redaction.redact)
        checked = false
    }
}

/// «Del med legen»: the letters to tick, the person and search that list them, the lifetimes.
struct ShareFormView {
    let letters: [ShareLetterRow]
    let hasLetters: Bool
    /// Ids ticked on arrival (kept when the list is narrowed by person or search).
    let chosen: [String]
    let people: [Option]
    let query: String
    let days: [Option]
    let problem: String?
    let emptyText: String

    init(picked: [LibraryDocument], listed: [DocumentSummary], household: [String], person: String, query: String,
         problem: String?, words: Words) {
        let pickedIDs = picked.map(\.shortID)
        letters = picked.map { ShareLetterRow($0, checked: true, words: words) }
            + listed.filter { !pickedIDs.contains($0.id) }.map { ShareLetterRow($0, words: words) }
        hasLetters = !letters.isEmpty
        chosen = pickedIDs
        var people = [Option(value: "", label: words["shareEveryone"], selected: person.isEmpty)]
        people += household.map { Option(value: $0, label: $0, selected: $0 == person) }
        people.append(Option(value: PersonFilter.unknown, label: ShownPerson.unknown.text(in: words.language),
                             selected: PersonFilter.isUnknown(person)))
        self.people = people
        self.query = query
        days = ShareStore.shareLinkDays.map { day in
            Option(value: String(day), label: words.language.count(day, ("dag", "day"), ("dager", "days")),
                   selected: day == ShareStore.defaultShareLinkDays)
        }
        self.problem = problem
        emptyText = words["shareNoLetters"]
    }
}

/// The link just made: its address (shown only now), letters and expiry.
struct ShareMadeView {
    let address: String
    let shownOnce: String
    let expires: String
    let letters: [[String: String]]
    /// The link works on this machine only (``WebServer/linkAddress(_:options:store:language:)``).
    var warning: String?

    init(link: ShareLink, address: String, words: Words) {
        self.address = address
        shownOnce = words.text(
            "Lenken vises bare nå. Kopier den og gi den til legen, for eksempel i en melding. Den virker til \(words.date(ShareLink.shown(link.expiresAt))).",
            "The link is shown only now. Copy it and give it to the doctor, for example in a message. It works until \(words.date(ShareLink.shown(link.expiresAt))).")
        expires = words.date(ShareLink.shown(link.expiresAt))
        letters = link.letters.map { ["id": $0.id, "title": $0.title] }
    }
}

/// «Delinger»: every link with its letters, status, expiry and openings.
struct SharesView {
    struct Row {
        let id: Int
        let label: String
        let statusLabel: String
        let active: Bool
        let made: String
        let expiry: String
        let letters: [[String: String]]
        let openedText: String
        let openings: [[String: String]]
        let hasOpenings: Bool
        let revokeQuestion: String
        /// Why the link's PDF could not be made (the letters can still be read on its page).
        let pdfProblem: String?
    }

    let links: [Row]
    let hasLinks: Bool
    var notice: String?

    init(links: [ShareLink], pdfProblems: [Int: UserMessage] = [:], words: Words, now: Date = Date()) {
        self.links = links.map { link in
            let status = link.status(now: now)
            let expiry = switch status {
            case .active: words.text("Virker til \(words.date(ShareLink.shown(link.expiresAt)))", "Works until \(words.date(ShareLink.shown(link.expiresAt)))")
            case .expired: words.text("Utløp \(words.date(ShareLink.shown(link.expiresAt)))", "Expired \(words.date(ShareLink.shown(link.expiresAt)))")
            case .revoked: words.text("Trukket tilbake \(words.date(ShareLink.shown(link.revokedAt ?? now)))",
                                      "Revoked \(words.date(ShareLink.shown(link.revokedAt ?? now)))")
            }
            let count = link.openings.count
            let statusLabel = switch status {
            case .active: words["shareStatusActive"]
            case .expired: words["shareStatusExpired"]
            case .revoked: words["shareStatusRevoked"]
            }
            return Row(
                id: link.id, label: words.text("Lenke \(link.id)", "Link \(link.id)"),
                statusLabel: statusLabel,
                active: status == .active,
                made: words.text("Laget \(words.date(ShareLink.shown(link.createdAt)))", "Made \(words.date(ShareLink.shown(link.createdAt)))"),
                expiry: expiry, letters: link.letters.map { ["id": $0.id, "title": $0.title] },
                openedText: count == 0 ? words.text("Ikke åpnet ennå", "Not opened yet")
                    : words.text("Åpnet \(count) \(count == 1 ? "gang" : "ganger")", "Opened \(count) \(count == 1 ? "time" : "times")"),
                openings: link.openings.prefix(50).map { opening in
                    ["when": words.date(ShareLink.shown(opening.openedAt)),
                     "what": opening.what == .pdf ? words.text("PDF lastet ned", "PDF downloaded") : words.text("Siden åpnet", "Page opened"),
                     "client": ShareClientHint.shown(opening.client, language: words.language)]
                },
                hasOpenings: count > 0,
                revokeQuestion: words.text("Trekke tilbake lenke \(link.id)? Den slutter å virke med en gang, også for den som har den.",
                                           "Revoke link \(link.id)? It stops working at once, also for whoever has it."),
                pdfProblem: status == .active ? pdfProblems[link.id].map { problem in
                    words.text("PDF-en kunne ikke lages (brevene kan fortsatt leses på siden lenken åpner): ",
                               "The PDF could not be made (the letters can still be read on the page the link opens): ")
                        + problem.text(in: words.language)
                } : nil)
        }
        hasLinks = !links.isEmpty
    }
}

/// The doctor's page: the letters, each with its fields and masked text, and the PDF.
struct SharedView {
    struct Letter {
        let anchor: String
        let title: String
        let date: String
        let typeLabel: String
        let institution: String?
        let person: String
        let text: String
        let hasText: Bool
        /// The letter's pages as the share PDF holds them (numbers boxed), shown beside the text.
        let pages: [[String: String]]
    }

    let intro: String
    let pdf: String?
    let letters: [Letter]
    let contents: [[String: String]]
    let hasLetters: Bool
    /// The shared letters' lab values, an analysis a line (``LabSummary``), before the letters.
    let labs: [[String: Any]]
    let labsIntro: String?

    /// `pages`: where the letters' page images are served (``WebServer/addSharedPageImageRoute(shared:)``).
    /// `labs`: the shared letters' own lab values.
    init(link: ShareLink, letters: [LibraryDocument], pdf: String, pages: String, labs: LabSummary = LabSummary([]), words: Words) {
        self.labs = labs.lines.map { line in
            var row: [String: Any] = ["analysis": line.analysis, "value": line.value, "unit": line.unit ?? "", "day": words.date(line.day),
                                      "range": line.range ?? "", "trend": line.trend(words.language), "doubtful": line.doubtful]
            switch line.flag {
            case "H": row["flagLabel"] = words.text("Høy", "High")
            case "L": row["flagLabel"] = words.text("Lav", "Low")
            default: break
            }
            if line.doubtfulCount > 0 {
                row["doubtNote"] = words.text("\(line.doubtfulCount) av \(line.count) verdier kan være feillest: sjekk mot brevet.",
                                              "\(line.doubtfulCount) of \(line.count) values may be misread: check against the letter.")
            }
            return row
        }
        labsIntro = labs.lines.isEmpty ? nil : words.text(
            "Siste verdi av hver analyse i de delte brevene, med utviklingen siden første verdi. Verdiene er lest av maskinen (OCR) fra brevene under: «usikker» betyr at et tall kan være feillest.",
            "The latest value of each analysis in the shared letters, with the change since the first. The values are machine-read (OCR) from the letters below: «unsure» means a number may be misread.")
        intro = words.text(
            "Brev delt fra familiens arkiv, bare til lesing. Lenken virker til \(words.date(ShareLink.shown(link.expiresAt))). Fødselsnummer er skjult.",
            "Letters shared from a family's archive, read-only. The link works until \(words.date(ShareLink.shown(link.expiresAt))). National ID numbers are hidden.")
        self.letters = letters.enumerated().map { index, document in
            Letter(anchor: "brev-\(index + 1)", title: document.title, date: words.date(document.documentDate),
                   typeLabel: words.type(document.docType.rawValue), institution: document.institution,
                   person: words.person(document.shownPerson), text: Redaction.redact(document.text), hasText: !document.text.isEmpty,
                   pages: (0..<ShareStore.sharedPageCount(document)).map { page in
                       // The page's own proportions, so the text does not jump as the image comes.
                       let size = document.pages.first { $0.number == page + 1 }.flatMap { $0.width > 0 ? $0 : nil }
                       return ["href": "\(pages)/\(document.shortID)/\(page + 1)",
                               "alt": words.text("Side \(page + 1) av brevet, fødselsnummer skjult",
                                                 "Page \(page + 1) of the letter, national ID numbers hidden"),
                               "height": String(size.map { 600 * $0.height / $0.width } ?? 849)]
                   })
        }
        contents = self.letters.map { ["anchor": $0.anchor, "title": $0.title] }
        hasLetters = !letters.isEmpty
        self.pdf = letters.isEmpty ? nil : pdf
    }
}

// The share pages' models answer the templates by name (see TemplateValues.swift).

extension ShareLetterRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "title": title
        case "typeLabel": typeLabel
        case "date": date
        case "person": person
        case "institution": institution
        case "checked": checked
        default: nil
        }
    }
}

extension ShareFormView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "letters": letters
        case "hasLetters": hasLetters
        case "chosen": chosen
        case "people": people
        case "query": query
        case "days": days
        case "problem": problem
        case "emptyText": emptyText
        default: nil
        }
    }
}

extension ShareMadeView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "address": address
        case "shownOnce": shownOnce
        case "expires": expires
        case "letters": letters
        case "warning": warning
        default: nil
        }
    }
}

extension SharesView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "links": links
        case "hasLinks": hasLinks
        case "notice": notice
        default: nil
        }
    }
}

extension SharesView.Row: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "label": label
        case "statusLabel": statusLabel
        case "active": active
        case "made": made
        case "expiry": expiry
        case "letters": letters
        case "openedText": openedText
        case "openings": openings
        case "hasOpenings": hasOpenings
        case "revokeQuestion": revokeQuestion
        case "pdfProblem": pdfProblem
        default: nil
        }
    }
}

extension SharedView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "intro": intro
        case "pdf": pdf
        case "letters": letters
        case "contents": contents
        case "hasLetters": hasLetters
        case "labs": labs
        case "hasLabs": !labs.isEmpty
        case "labsIntro": labsIntro
        default: nil
        }
    }
}

extension SharedView.Letter: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "anchor": anchor
        case "title": title
        case "date": date
        case "typeLabel": typeLabel
        case "institution": institution
        case "person": person
        case "text": text
        case "hasText": hasText
        case "pages": pages
        case "hasPages": !pages.isEmpty
        default: nil
        }
    }
}
