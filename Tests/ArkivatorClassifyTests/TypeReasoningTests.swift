import ArkivatorCore
@testable import ArkivatorClassify
import Testing

/// The type is read from the whole letter: its heading, what it reports or calls to, and its
/// structure; a type's name in a sentence is only a mention. Letters written for these tests.
@Suite struct TypeReasoningTests {
    static let scan = CalendarDate(year: 2026, month: 1, day: 10)!
    static let family = [FamilyProfile(name: "Kari Nordmann", birthDate: "1980-03-14"),
                         FamilyProfile(name: "Jonas Nordmann", birthDate: "2019-08-02")]

    private func classify(_ text: String) -> Classification {
        Classifier(family: Self.family).classify(text, scanDate: Self.scan)
    }

    @Test func aStayThatIsOverIsADischargeSummaryThoughItListsPrescriptions() {
        let letter = classify("""
            Nordlandssykehuset HF
            Medisinsk avdeling
            Dato: 14. mars 2025
            Sammenfatning av sykehusopphold
            Pasient: Kari Nordmann, født 14.03.1980
            Innlagt 3. mars 2025, utskrevet 11. mars 2025 ved medisinsk sengepost.
            Hva som ble gjort
            Behandlet med antibiotika intravenøst, deretter tabletter.
            Resepter og faste medisiner
            Nye resepter er sendt elektronisk. Medisinlisten under gjelder fra utskrivningen.
            Paracet 500 mg tablett, 2 tabletter 3 ganger daglig
            Selo-Zok 50 mg depottablett, 1 tablett om morgenen
            Kapsel Omeprazol 20 mg, 1 kapsel daglig
            """)
        #expect(letter.docType == .epikrise)
    }

    @Test func anAdmissionToComeIsACallInThoughItSpeaksOfTheStay() {
        let letter = classify("""
            Stavanger universitetssjukehus
            Ortopedisk avdeling
            Dato 22. august:2025
            VELKOMMEN TIL ORTOPEDISK SENGEPOST
            Gjelder Kari Nordmann (født 14.03.1980)
            Vi viser til samtalen ved poliklinikken og bekrefter at du skal legges inn hos oss.
            Innleggelsesdag: mandag 13. oktober 2025
            Oppmøte: kl. 07.15 i resepsjonen, inngang vest
            Regn med å være innlagt i 2 døgn.
            """)
        #expect(letter.docType == .innkalling)
        #expect(letter.documentDate == "2025-08-22")
        // The same with a mark over the time's "kl." ("*Kk1.07.15"): the time still calls in.
        let marked = classify("""
            Stavanger universitetssjukehus
            Gastromedisinsk avdeling
            Dato 31.07.2025
            Velkommen til Gastromedisinsk sengepost
            Vi viser til samtalen ved poliklinikken og bekrefter at du skal legges inn hos oss.
            Innleggelsesdag: torsdag 18.09.2025
            Oppmøte: *Kk1.07.55 i resepsjonen, bygg 1, 2. etasje
            Regn med å være innlagt i 1 døgn.
            """)
        #expect(marked.docType == .innkalling)
    }

    @Test func aReminderOfAnAppointmentIsACallIn() {
        let letter = classify("""
            Strømmen legesenter
            Dato: 6. mai 2025
            Påminnelse om time
            Pasient: Kari Nordmann
            Det er tid for årlig kontroll av blodtrykket. Vi har satt opp en time til deg.
            Tid: 20. mai 2025 kl. 10.30
            Kom gjerne ti minutter før, så vi rekker å ta blodprøver.
            """)
        #expect(letter.docType == .innkalling)
    }

    @Test func theLetterAnsweredIsNotThisLettersTypeOrDateWhenColumnsRunTogether() {
        // The address and the reference block, side by side, read as one line each.
        let letter = classify("""
            Nordlandssykehuset HF
            Barne- og ungdomsklinikken
            Foresatte til Jonas Nordmann Journalnr.: 2025/9056
            Rosenborggata 6 Deres ref: Tilvisning 19.07.2024
            2317 HAMAR Bodø, 3. juli 2025
            TIME FOR BARNET DITT
            Pas.: Nordmann, Jonas
            Jonas har fått time til undersøkelse ved Barnepoliklinikken fredag 22. august 2025 klokken 09.45.
            En av foreldrene må være med.
            """)
        #expect(letter.docType == .innkalling)
        #expect(letter.documentDate == "2025-07-03")
        #expect(letter.familyMember == "Jonas Nordmann")
    }

    @Test func aReferralNamedInASentenceIsOnlyAMention() {
        let letter = classify("""
            Akershus universitetssykehus HF
            Dato: 2. februar 2025
            Du har fått time
            Pasient: Kari Nordmann
            Vi har mottatt henvisningen fra fastlegen din og har satt av tid til en vurdering.
            Når: tirsdag 18. februar 2025, klokken 13.00
            Hvor: Bygg C, 3. etasje
            """)
        #expect(letter.docType == .innkalling)
    }

    @Test func aReferralTitledOnALineOfItsOwnIsAReferral() {
        // The heading is not where the rules look for it (below a department line), but the
        // line "Henvisning" stands alone: a title, not a mention.
        let letter = classify("""
            Lundsiden legekontor
            Kjøita 16
            4630 Kristiansand
            Hjertepoliklinikken
            Sørlandet sykehus
            Henvisning
            Pasient: Kari Nordmann, født 14.03.1980
            Tungpust ved anstrengelse siden i høst. Bruker tabletter for blodtrykket.
            Faste legemidler: Ramipril 5 mg kapsel daglig.
            Fastlege Per Lund
            """)
        #expect(letter.docType == .henvisning)
    }

    @Test func thePatientHeadingATableIsFound() {
        let letter = classify("""
            Unilabs Laboratoriemedisin
            Analyserapport
            Pasient Født Rekvirent
            Jonas Nordmann 02.08.2019 Per Lund
            Prøve tatt: 3.3.2025 08.10
            Hemoglobin 12,1 g/dL 11,5–15,5
            """)
        #expect(letter.familyMember == "Jonas Nordmann")
        // The requesting doctor in a later column is never the person.
        let stranger = classify("""
            Unilabs Laboratoriemedisin
            Analyserapport
            Pasient Rekvirent
            Ukjent Ukjentsen Lege Per Lund
            """)
        #expect(stranger.person != "Per Lund" && stranger.person != "Lege Per Lund")
    }

    @Test func aDateWithOCRPunctuationBeforeItsYearIsRead() {
        #expect(NorwegianDate.find(in: "Dato 22. august:2025").map(\.date.iso) == ["2025-08-22"])
        #expect(NorwegianDate.find(in: "3. november, 2025").map(\.date.iso) == ["2025-11-03"])
    }
}

/// The issuer is read past the marks a logo leaves before the letterhead's first line.
@Suite struct LetterheadMarksTests {
    @Test(arguments: [
        ("(7| UNN – Laboratoriemedisin\nDiagnostisk klinikk\nPostboks 100 Langnes\n9038 Tromsø\nAnalyserapport", "Universitetssykehuset Nord-Norge"),
        ("1 : Storgata legesenter\nStorgata 84\n9008 Tromsø\nHelse Møre og Romsdal – Ålesund sjukehus\nOrtopedisk poliklinikk\nHenvisning", "Storgata legesenter"),
    ])
    func theIssuerStandsBehindTheLogosMarks(text: String, issuer: String) {
        let letter = Classifier().classify(text, scanDate: CalendarDate(year: 2026, month: 1, day: 10)!)
        #expect(letter.institution == issuer)
    }
}
