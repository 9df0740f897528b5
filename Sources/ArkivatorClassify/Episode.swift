import ArkivatorCore
import Foundation

/// A letter as an episode sees it: when it is dated, what kind it is, and who sent it.
public struct EpisodeLetter: Sendable, Equatable {
    /// The caller's key for the letter (a library row).
    public var id: Int
    /// The letter's own date.
    public var date: CalendarDate
    public var type: DocumentType
    /// The department or specialty the letter names (`Kardiologi`), if any.
    public var specialty: String?
    /// The institution in the letterhead, if any.
    public var sender: String?

    public init(id: Int, date: CalendarDate, type: DocumentType, specialty: String?, sender: String?) {
        self.id = id
        self.date = date
        self.type = type
        self.specialty = specialty
        self.sender = sender
    }
}

/// One course of care in a person's timeline: a referral, the appointment, the epikrise, the lab
/// results and the prescription that belong together. Made by ``EpisodeRule``.
public struct Episode: Sendable, Equatable {
    /// The episode's area (``EpisodeRule/area(specialty:sender:)``); nil when no letter of it
    /// names a specialty or a sender.
    public var area: String?
    /// Oldest first (date, then the caller's key).
    public var letters: [EpisodeLetter]

    public var first: CalendarDate { letters.first?.date ?? .fallback }
    public var last: CalendarDate { letters.last?.date ?? .fallback }
    /// The senders of its letters, each once, in the order they first wrote.
    public var senders: [String] {
        // Each sender as printed is normalised once: an episode of thousands of letters has a few senders.
        var printed: Set<String> = [], seen: Set<String> = [], result: [String] = []
        for sender in letters.compactMap(\.sender) where printed.insert(sender).inserted {
            if seen.insert(Fuzzy.normalized(sender)).inserted { result.append(sender) }
        }
        return result
    }
}

/// How letters are gathered into episodes: the one rule the timeline follows.
///
/// 1. Each letter has an **area**: the specialty it names; else a specialty its sender's name
///    names ("Hjertepoliklinikken" → Kardiologi, "Fastlegekontoret Lia" → Allmennmedisin); else
///    the kind of sender (a GP's office → Allmennmedisin, a laboratory → Medisinsk biokjemi, a
///    pharmacy → «Apotek», a dentist → «Tannhelse»); else the sender (the institution's own name
///    when known). Specialty names are the vocabulary's (`specialties.json`), so a department
///    printed two ways is one area.
/// 2. Letters are taken oldest first. A lab result or a prescription (by type), or a letter of a
///    diagnostic specialty (Medisinsk biokjemi, Radiologi, …), from a hospital or a clinic (not
///    from a GP's office, a laboratory, a pharmacy or a dentist, which keep to their own area)
///    joins the episode of a treating area that is open at its date (its latest letter at most
///    ``window`` days older) and holds a letter from the same sender: the test taken at the
///    hospital that treats the person belongs to that treatment. The most recently active such
///    episode wins.
/// 3. Else a letter joins the episode of its area whose latest letter is at most ``window`` days
///    older.
/// 4. Else the letter starts an episode of its own.
///
/// Episodes come newest first (by their latest letter), their letters oldest first.
public struct EpisodeRule: Sendable {
    /// Days a letter may follow the episode's latest one and still belong to it.
    public var window: Int
    let vocabulary: Vocabulary
    /// Institution names by their normalised name or alias, with their kind.
    private let institutions: [(name: String, kind: String, phrase: Fuzzy.Phrase, short: Bool)]

    public static let standard = EpisodeRule()

    /// The kinds of sender that keep to an area of their own, and its name.
    static let kindAreas = ["gp": "Allmennmedisin", "laboratory": "Medisinsk biokjemi", "pharmacy": "Apotek",
                            "dentist": "Tannhelse"]
    /// Areas whose letters serve another's treatment: tests, images and medicines.
    static let supportingAreas: Set<String> = [
        "Medisinsk biokjemi", "Mikrobiologi", "Immunologi og transfusjonsmedisin", "Patologi", "Radiologi",
        "Nukleærmedisin", "Klinisk farmakologi", "Apotek",
    ]

    public init(vocabulary: Vocabulary = .standard, window: Int = 180) {
        self.vocabulary = vocabulary
        self.window = window
        institutions = vocabulary.institutions.flatMap { institution in
            ([institution.name] + institution.aliases).map {
                (institution.name, institution.kind, Fuzzy.Phrase($0), $0.count <= 4)
            }
        }
    }

    /// The area of a letter (rule 1); nil when it names neither a specialty nor a sender.
    public func area(specialty: String?, sender: String?) -> String? {
        reasoned(specialty: specialty, sender: sender).area
    }

    /// The area, and whether the sender is an office that keeps to its own area (a GP's office, a
    /// laboratory, a pharmacy, a dentist).
    func reasoned(specialty: String?, sender: String?) -> (area: String?, office: Bool) {
        let named = Self.trimmed(sender)
        let words = named.map { Fuzzy.normalized($0).split(separator: " ").map(String.init) } ?? []
        let known = institutions.filter { entry in
            entry.short ? words.starts(with: entry.phrase.words) : Fuzzy.containsWords(words, entry.phrase, fuzzy: false)
        }.max { $0.phrase.joined.count < $1.phrase.joined.count }
        let kindArea = (known?.kind ?? kind(ofOffice: words)).flatMap { Self.kindAreas[$0] }
        if let specialty = Self.trimmed(specialty) {
            return (self.specialty(named: specialty) ?? specialty, kindArea != nil)
        }
        guard let sender = named else { return (nil, false) }
        if let area = self.specialty(named: sender) { return (area, kindArea != nil) }
        return (kindArea ?? known?.name ?? sender, kindArea != nil)
    }

    /// The letters gathered into episodes (rules 2–4), newest episode first.
    public func episodes(_ letters: [EpisodeLetter]) -> [Episode] {
        struct Open {
            var episode: Episode
            var lastDay: Int
            var supporting: Bool
            var senders: Set<String> = []
        }
        var open: [Open] = []
        // Where to look, so that 20,000 letters cost no more than a glance each: the latest
        // episode of each area (only it can still be open: a new one of the area starts only when
        // the last has closed), and the treating episodes each sender has written in.
        var latest: [String: Int] = [:]
        var bySender: [String: [Int]] = [:]
        // Most letters share a handful of (specialty, sender) pairs: each pair is reasoned about,
        // and its sender normalised, once.
        var reasons: [String: (area: String?, office: Bool, sender: String?)] = [:]
        for letter in letters.sorted(by: { ($0.date, $0.id) < ($1.date, $1.id) }) {
            let key = (letter.specialty ?? "") + "\u{1F}" + (letter.sender ?? "")
            let reason: (area: String?, office: Bool, sender: String?)
            if let known = reasons[key] { reason = known } else {
                let found = reasoned(specialty: letter.specialty, sender: letter.sender)
                reason = (found.area, found.office, Self.trimmed(letter.sender).map(Fuzzy.normalized))
                reasons[key] = reason
            }
            let area = reason.area, areaKey = reason.area ?? "\u{0}"
            let sender = reason.sender
            let day = letter.date.dayNumber, since = day - window
            let supportingArea = area.map(Self.supportingAreas.contains) == true
            var chosen: Int?
            if !reason.office, letter.type == .labSvar || letter.type == .resept || supportingArea, let sender {
                let stillOpen = (bySender[sender] ?? []).filter { open[$0].lastDay >= since }
                bySender[sender] = stillOpen
                chosen = stillOpen.max { open[$0].lastDay < open[$1].lastDay || (open[$0].lastDay == open[$1].lastDay && $0 < $1) }
            }
            if chosen == nil, let index = latest[areaKey], open[index].lastDay >= since { chosen = index }
            let index: Int
            if let chosen {
                index = chosen
                open[index].episode.letters.append(letter)
                open[index].lastDay = day
            } else {
                index = open.count
                open.append(Open(episode: Episode(area: area, letters: [letter]), lastDay: day, supporting: supportingArea))
                latest[areaKey] = index
            }
            if let sender, !open[index].supporting, open[index].senders.insert(sender).inserted {
                bySender[sender, default: []].append(index)
            }
        }
        return open.map(\.episode).enumerated().sorted { a, b in
            a.element.last != b.element.last ? a.element.last > b.element.last : a.offset > b.offset
        }.map(\.element)
    }

    /// The specialty `text` names: its own name (any case), or a name or alias among its words
    /// ("Hjertepoliklinikken, Haukeland" → Kardiologi; the longest wins).
    func specialty(named text: String) -> String? {
        let normalized = Fuzzy.normalized(text)
        if let named = vocabulary.specialties.first(where: { Fuzzy.normalized($0.name) == normalized }) { return named.name }
        let words = normalized.split(separator: " ").map(String.init)
        let found = vocabulary.specialtyPhrases.filter { Fuzzy.containsWords(words, $0.phrase, fuzzy: false) }.max { $0.phrase.joined.count < $1.phrase.joined.count }
        return found.map { vocabulary.specialties[$0.index].name }
    }

    /// The kind of office a sender's words name by their ending ("Lia legesenter" → `gp`); the
    /// longest ending wins ("tannklinikk" over "klinikk").
    func kind(ofOffice words: [String]) -> String? {
        var best: (kind: String, length: Int)?
        for pattern in vocabulary.suffixPatterns {
            for suffix in pattern.suffixes.map({ Fuzzy.normalized($0) }) where suffix.count > 2 && suffix.count > (best?.length ?? 0) {
                if words.contains(where: { $0 == suffix || ($0.hasSuffix(suffix) && $0.count > suffix.count + 2) }) {
                    best = (pattern.kind, suffix.count)
                }
            }
        }
        return best?.kind
    }

    static func trimmed(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }
}
