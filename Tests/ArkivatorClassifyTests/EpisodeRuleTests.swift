import ArkivatorCore
@testable import ArkivatorClassify
import Testing

/// How a person's letters are gathered into episodes (``EpisodeRule``), on letters written for
/// these tests.
@Suite struct EpisodeRuleTests {
    let rule = EpisodeRule.standard

    static func letter(_ id: Int, _ date: String, _ type: DocumentType, specialty: String? = nil,
                       sender: String? = nil) -> EpisodeLetter {
        EpisodeLetter(id: id, date: CalendarDate(iso: date)!, type: type, specialty: specialty, sender: sender)
    }

    @Test func theAreaIsTheSpecialtyElseWhatTheSenderSays() {
        #expect(rule.area(specialty: "Kardiologi", sender: "Haukeland universitetssjukehus") == "Kardiologi")
        #expect(rule.area(specialty: "kardiologisk poliklinikk", sender: nil) == "Kardiologi", "a department printed another way")
        #expect(rule.area(specialty: "  Hjertesvikt-team ", sender: nil) == "Hjertesvikt-team", "a specialty typed by hand stays")
        #expect(rule.area(specialty: nil, sender: "Hjertepoliklinikken Haukeland") == "Kardiologi", "a department in the sender")
        #expect(rule.area(specialty: nil, sender: "Lia legesenter") == "Allmennmedisin", "a GP's office by its name's ending")
        #expect(rule.area(specialty: "", sender: "Fastlegekontoret Lia") == "Allmennmedisin", "the same, named in the vocabulary")
        #expect(rule.area(specialty: nil, sender: "Fürst medisinsk laboratorium") == "Medisinsk biokjemi")
        #expect(rule.area(specialty: nil, sender: "Apotek 1 Storgata") == "Apotek")
        #expect(rule.area(specialty: nil, sender: "Vestvik tannklinikk") == "Tannhelse", "the longest ending wins")
        #expect(rule.area(specialty: nil, sender: "Haukeland universitetssjukehus") == "Haukeland universitetssjukehus")
        #expect(rule.area(specialty: nil, sender: "Vestvik sykehus") == "Vestvik sykehus")
        #expect(rule.area(specialty: nil, sender: " ") == nil)
        #expect(rule.area(specialty: nil, sender: nil) == nil)
    }

    /// A referral, the innkalling, the epikrise, the lab result and the prescription from the
    /// hospital are one episode; a test from a laboratory and a prescription from the GP's office
    /// keep to their own areas; the same specialty after more than 180 days starts a second episode.
    @Test func aCourseOfCareIsOneEpisode() {
        let letters = [
            Self.letter(1, "2024-01-10", .henvisning, specialty: "Kardiologi", sender: "Lia legesenter"),
            Self.letter(2, "2024-02-01", .innkalling, specialty: "Kardiologi", sender: "Haukeland universitetssjukehus"),
            Self.letter(3, "2024-03-05", .epikrise, specialty: "Kardiologisk avdeling", sender: "Haukeland universitetssjukehus"),
            Self.letter(4, "2024-03-06", .labSvar, specialty: "Medisinsk biokjemi", sender: "Haukeland universitetssjukehus"),
            Self.letter(5, "2024-03-07", .resept, sender: "haukeland  universitetssjukehus"),
            Self.letter(6, "2024-03-01", .labSvar, sender: "Fürst medisinsk laboratorium"),
            Self.letter(7, "2025-01-15", .innkalling, specialty: "Kardiologi", sender: "Haukeland universitetssjukehus"),
            Self.letter(8, "2024-06-01", .resept, sender: "Lia legesenter"),
        ]
        let episodes = rule.episodes(letters.reversed())
        #expect(episodes.map(\.area) == ["Kardiologi", "Allmennmedisin", "Kardiologi", "Medisinsk biokjemi"], "newest first")
        #expect(episodes.map { $0.letters.map(\.id) } == [[7], [8], [1, 2, 3, 4, 5], [6]],
                "letters oldest first; the hospital's lab result with its treatment, not with the laboratory's")
        let course = episodes[2]
        #expect(course.first == CalendarDate(iso: "2024-01-10") && course.last == CalendarDate(iso: "2024-03-07"))
        #expect(course.senders == ["Lia legesenter", "Haukeland universitetssjukehus"], "each sender once")
    }

    @Test func theWindowCountsDaysFromTheLatestLetter() {
        // 180 days after the latest letter still belongs; 181 days starts anew (2024 is a leap year).
        let joined = rule.episodes([
            Self.letter(1, "2024-01-01", .innkalling, specialty: "Ortopedi"),
            Self.letter(2, "2024-06-29", .epikrise, specialty: "Ortopedi"),
            Self.letter(3, "2024-12-26", .innkalling, specialty: "Ortopedi"),
        ])
        #expect(joined.map { $0.letters.map(\.id) } == [[1, 2, 3]], "each within 180 days of the one before")
        let split = rule.episodes([
            Self.letter(1, "2024-01-01", .innkalling, specialty: "Ortopedi"),
            Self.letter(2, "2024-06-30", .epikrise, specialty: "Ortopedi"),
        ])
        #expect(split.map { $0.letters.map(\.id) } == [[2], [1]])
        #expect(EpisodeRule(window: 30).episodes([
            Self.letter(1, "2024-01-01", .innkalling, specialty: "Ortopedi"),
            Self.letter(2, "2024-02-15", .epikrise, specialty: "Ortopedi"),
        ]).count == 2, "the window is the rule's")
    }

    /// A lab result joins only an episode that is open at its date and has heard from its sender;
    /// letters without specialty or sender are an episode of their own; the same day keeps the
    /// caller's order.
    @Test func labResultsJoinOnlyAnOpenEpisodeOfTheirSender() {
        let episodes = rule.episodes([
            Self.letter(1, "2023-01-10", .epikrise, specialty: "Nevrologi", sender: "St. Olavs hospital"),
            Self.letter(2, "2023-09-01", .labSvar, sender: "St. Olavs hospital"),
            Self.letter(3, "2023-09-01", .annet),
            Self.letter(4, "2023-09-01", .vedtak),
        ])
        #expect(episodes.map(\.area) == [nil, "St. Olavs hospital", "Nevrologi"])
        #expect(episodes.map { $0.letters.map(\.id) } == [[3, 4], [2], [1]])
        #expect(rule.episodes([]).isEmpty)
    }

    /// The timeline's most: 20,000 letters of a few areas and senders, gathered in one pass.
    @Test func twentyThousandLetters() throws {
        let start = try #require(CalendarDate(iso: "1990-01-01"))
        let senders = ["Lia legesenter", "Haukeland universitetssjukehus", "Fürst medisinsk laboratorium", "Apotek 1 Torget"]
        let letters = try (0..<20_000).map { index in
            EpisodeLetter(id: index, date: try #require(start.adding(days: index / 2)), type: index % 3 == 0 ? .labSvar : .annet,
                          specialty: index % 5 == 0 ? "Kardiologi" : nil, sender: senders[index % senders.count])
        }
        let episodes = rule.episodes(letters)
        #expect(episodes.reduce(0) { $0 + $1.letters.count } == 20_000, "every letter once")
        #expect(Set(episodes.compactMap(\.area)) == ["Kardiologi", "Allmennmedisin", "Haukeland universitetssjukehus",
                                                      "Medisinsk biokjemi", "Apotek"])
        #expect(episodes.allSatisfy { $0.letters.map(\.date) == $0.letters.map(\.date).sorted() })
    }

    @Test func daysBetweenCalendarDates() throws {
        let day = { (iso: String) in CalendarDate(iso: iso)! }
        #expect(day("1970-01-01").dayNumber == 0)
        #expect(day("1969-12-31").dayNumber == -1)
        #expect(day("2000-02-28").days(to: day("2000-03-01")) == 2, "2000 is a leap year")
        #expect(day("2100-02-28").days(to: day("2100-03-01")) == 1, "2100 is not")
        #expect(day("2024-01-01").days(to: day("2025-01-01")) == 366)
        #expect(day("2025-06-03").days(to: day("2025-05-01")) == -33)
        #expect(day("2024-02-28").adding(days: 1) == day("2024-02-29"))
        #expect(day("2024-12-31").adding(days: 1) == day("2025-01-01"))
        #expect(day("2025-03-01").adding(days: -1) == day("2025-02-28"))
        #expect(day("1970-01-01").adding(days: -1) == day("1969-12-31"))
        #expect(day("2100-12-31").adding(days: 1) == nil, "past the years a date holds")
        var date = day("1999-12-25")
        for step in 1...800 {
            let next = try #require(date.adding(days: 1))
            #expect(date.days(to: next) == 1 && next > date, "\(date) + \(step)")
            date = next
        }
    }
}
