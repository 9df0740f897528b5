import ArkivatorCore
import Testing

/// The title format `YYYY-MM-DD <title>`, built and read in one place.
@Suite struct DocumentTitleTests {
    @Test func madeAndRead() throws {
        let date = try #require(CalendarDate(iso: "2024-03-14"))
        let title = DocumentTitle.make(date: date, "Epikrise Ortopedisk avdeling")
        #expect(title == "2024-03-14 Epikrise Ortopedisk avdeling")
        #expect(DocumentTitle.date(of: title) == date)
        #expect(DocumentTitle.description(of: title) == "Epikrise Ortopedisk avdeling")
        #expect(DocumentTitle.date(of: "2024-03-14") == date)
        for undated in ["Epikrise", "2024-3-14 Epikrise", "2024-02-30 Epikrise", "2024-03-14Epikrise", ""] {
            #expect(DocumentTitle.date(of: undated) == nil, "\(undated)")
            #expect(DocumentTitle.description(of: undated) == undated)
        }
    }

    @Test func correctedTitles() {
        #expect(DocumentTitle.dated("Min tittel", date: "2024-03-14") == "2024-03-14 Min tittel")
        #expect(DocumentTitle.dated("2023-01-02 Min tittel", date: "2024-03-14") == "2023-01-02 Min tittel")
        #expect(DocumentTitle.redated("2024-03-14 Epikrise", from: "2024-03-14", to: "2024-04-01") == "2024-04-01 Epikrise")
        #expect(DocumentTitle.redated("Egen tittel", from: "2024-03-14", to: "2024-04-01") == "Egen tittel")
        #expect(DocumentTitle.retyped("2024-03-14 Epikrise Ortopedisk", date: "2024-03-14", from: "Epikrise", to: "Innkalling")
                == "2024-03-14 Innkalling Ortopedisk")
        #expect(DocumentTitle.retyped("2024-03-14 Epikrisen min", date: "2024-03-14", from: "Epikrise", to: "Innkalling")
                == "2024-03-14 Epikrisen min", "only the whole word")
    }

    @Test func shortIDAndShownPerson() {
        #expect(ShortID.of("3fa2b1c9d0e1f2a3b4c5") == "3fa2b1c9d0")
        #expect(ShownPerson.message(familyMember: "Kari", person: "K. Nordmann").norwegian == "Kari")
        #expect(ShownPerson.message(familyMember: nil, person: "Ola").english == "Ola")
        #expect(ShownPerson.message(familyMember: nil, person: nil) == UserMessage(nb: "Ukjent person", en: "Unknown person"))
    }
}
