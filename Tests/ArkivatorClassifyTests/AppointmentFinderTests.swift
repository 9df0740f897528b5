import ArkivatorCore
@testable import ArkivatorClassify
import Foundation
import Testing

/// Appointments on letters written for these tests (not from any corpus).
@Suite struct AppointmentFinderTests {
    static let scan = CalendarDate(year: 2025, month: 12, day: 1)!

    private func appointments(_ text: String) -> [Appointment] {
        Classifier().classify(text, scanDate: Self.scan).appointments ?? []
    }

    @Test func summonsWithLabelledLines() {
        let found = appointments("""
            Sykehuset Innlandet
            Medisinsk poliklinikk
            Dato: 12.03.2025
            INNKALLING TIL POLIKLINISK TIME
            Pasient: Nordmann, Kari, født 14.03.1980
            Du er satt opp til kontroll hos lege.
            Dato: torsdag 03.04.2025
            Tid: kl. 08.30
            Sted: Bygg 4, 2. etasje, resepsjon B
            Ta med
            - Oversikt over medisinene du bruker
            - Gyldig legitimasjon
            Dersom du ikke kan komme
            Gi beskjed senest 24 timer før på telefon 62 53 60 00 (hverdager kl. 08.00–15.00).
            """)
        #expect(found.count == 1)
        #expect(found.first?.date == "2025-04-03")
        #expect(found.first?.time == "08:30")
        #expect(found.first?.place == "Bygg 4, 2. etasje, resepsjon B")
        #expect(found.first?.bring == "Oversikt over medisinene du bruker; Gyldig legitimasjon")
        #expect(found.first?.change?.hasPrefix("Gi beskjed senest 24 timer før") == true)
        #expect(found.first?.cancelled == false)
    }

    /// «tlf.», «kl.» and other abbreviations end no sentence: the way to change keeps its phone number.
    @Test func theWayToChangeKeepsItsPhoneNumber() {
        for (line, expected) in [
            ("Timen kan endres eller avbestilles på tlf. 22 11 80 80 kl. 08.00–15.00. Husk legitimasjon.",
             "Timen kan endres eller avbestilles på tlf. 22 11 80 80 kl. 08.00–15.00."),
            ("Dersom du ikke kan komme, ring avd. 3 på tel. 55 97 50 00 (ca. kl. 8-15), f.eks. dagen før. Velkommen.",
             "Dersom du ikke kan komme, ring avd. 3 på tel. 55 97 50 00 (ca. kl. 8-15), f.eks. dagen før."),
        ] {
            let letter = LetterText("Innkalling til time\nDato: 03.04.2025 kl. 08.30\n" + line)
            #expect(AppointmentDetails.change(in: letter) == expected, "\(line)")
        }
    }

    /// A bare date label over a time label, with no weekday: "Dato:" is the appointment's when a
    /// time stands beside or below it, while the letter's own "Dato:" line has none.
    @Test(arguments: [
        ("Dato: 26.12.2025\nTid: kl. 10.30\nSted: Bygg B, 2. etasje", "Bygg B, 2. etasje"),
        ("Dato: 26.12.2025\nKlokkeslett: 10:30\nOppmøtested: Resepsjonen", "Resepsjonen"),
        ("Dag/dato: 26.12.25\nKlokken: 10.30", nil),
    ] as [(String, String?)])
    func bareDateLabelOverATime(lines: String, place: String?) {
        let found = appointments("""
            Sykehuset Innlandet HF
            Medisinsk poliklinikk
            Dato: 12.11.2025
            INNKALLING TIL POLIKLINISK TIME
            Du er satt opp til time ved Medisinsk poliklinikk.
            \(lines)
            Avbestilling må skje senest 24 timer før timen.
            """)
        #expect(found.count == 1)
        #expect(found.first?.date == "2025-12-26")
        #expect(found.first?.time == "10:30")
        #expect(found.first?.place == place)
    }

    @Test func nynorskAndArrivalOnly() {
        let nynorsk = appointments("""
            Helse Førde
            Førde, 2. mai 2025
            Du har fått time til undersøking ved Augepoliklinikken.
            Dato: måndag 16. juni 2025
            Klokka: 13.45
            Stad: Sentralblokka, 3. etasje
            """)
        #expect(nynorsk.map(\.date) == ["2025-06-16"])
        #expect(nynorsk.first?.time == "13:45")
        #expect(nynorsk.first?.place == "Sentralblokka, 3. etasje")
        // Only the arrival time is printed: it is the time to be there.
        let operation = appointments("""
            Vestre Viken, Bærum sykehus
            Dato: 20.10.2025
            Vi har satt deg opp til operasjon av kneet.
            Operasjonsdato: fredag 7. november 2025
            Oppmøte: kl. 07.15 i resepsjonen, Dagkirurgisk enhet
            Du må faste fra midnatt.
            """)
        #expect(operation.first?.date == "2025-11-07")
        #expect(operation.first?.time == "07:15")
        #expect(operation.first?.place == "resepsjonen, Dagkirurgisk enhet")
    }

    @Test func sentenceFormsYearlessDaysAndOCRNoise() {
        let sentence = appointments("""
            Bergen, 1. september 2025
            Emma har fått time ved Barnepoliklinikken mandag
            6. oktober 2025 klokken
            10.15. Meld fra hvis timen ikke passer.
            """)
        #expect(sentence.first?.date == "2025-10-06")
        #expect(sentence.first?.time == "10:15")
        let yearless = appointments("""
            Oslo, 20.11.2025
            Innkalling til time ved Ortopedisk poliklinikk.
            Du har fått time til MR av venstre kne tirsdag 13. januar kl 9.
            """)
        #expect(yearless.first?.date == "2026-01-13")
        #expect(yearless.first?.time == "09:00")
        let noisy = appointments("""
            Dato: 02.02.2025
            Innkalling
            Tidspunkt: onsdag 12.03.2025 kl 14,30
            """)
        #expect(noisy.first?.date == "2025-03-12")
        #expect(noisy.first?.time == "14:30")
        let timeless = appointments("""
            Dato: 02.02.2025
            Innkalling til time ved Barnepoliklinikken
            Dato: tirsdag 18. mars 2025
            """)
        #expect(timeless.first?.date == "2025-03-18")
        #expect(timeless.first?.time == nil)
    }

    @Test func movedAndCancelled() {
        let moved = appointments("""
            Dato: 10.05.2025
            Ny time
            Timen din 03.06.2025 er dessverre flyttet.
            Ny tid: onsdag 11.06.2025 kl. 12.00
            """)
        #expect(moved.first?.date == "2025-06-11")
        #expect(moved.first?.time == "12:00")
        #expect(moved.first?.replaces == "2025-06-03")
        #expect(moved.first?.cancelled == false)
        let cancelled = appointments("""
            Dato: 10.05.2025
            Timen din tirsdag 03.06.2025 kl. 10.00 er dessverre avlyst. Du får ny innkalling.
            """)
        #expect(cancelled.first?.date == "2025-06-03")
        #expect(cancelled.first?.cancelled == true)
        #expect(cancelled.first?.replaces == "2025-06-03")
        let replacing = appointments("""
            Dato: 10.05.2025
            Denne innkallingen erstatter tidligere innkalling.
            Ny tid: onsdag 11.06.2025 kl. 12.00
            """)
        #expect(replacing.first?.date == "2025-06-11")
        #expect(replacing.first?.moved == true)
        #expect(replacing.first?.replaces == nil)
        // A rule about cancelling is not a cancellation.
        let rule = appointments("""
            Dato: 10.05.2025
            Innkalling
            Tid: mandag 16.06.2025 kl. 09.00
            Timer som ikke blir brukt og ikke er
            avlyst, blir fakturert.
            """)
        #expect(rule.first?.cancelled == false)
        #expect(rule.first?.replaces == nil)
        #expect(rule.first?.moved == false)
    }

    @Test func lettersWithDatesAndTimesButNoAppointment() {
        let letters = [
            """
            Sørlandet sykehus
            Kristiansand, 3. november 2025
            EPIKRISE
            Pasient: Nordmann, Ola, født 11.02.1978
            Innlagt: mandag 27.10.2025 kl. 14.20. Utskrevet: 01.11.2025 kl. 11.00.
            Operert tirsdag 28.10.2025. Kontroll ved poliklinikken om seks uker, innkalling kommer.
            """,
            """
            Fürst medisinsk laboratorium
            Svar dato: 05.11.2025
            Prøve tatt: tirsdag 04.11.2025 kl. 08.15
            Hemoglobin 13,9 g/dL
            """,
            """
            NAV
            Vedtak om arbeidsavklaringspenger
            Dato: 14.10.2025
            Du får pengene fra mandag 20.10.2025 til og med 19.10.2026.
            Har du spørsmål, ring oss på 55 55 33 33, hverdager kl. 09.00–15.00. Timen din hos veileder avtaler dere selv.
            """,
            """
            Legekontoret
            Dato: 01.10.2025
            Resept
            Paracet 500 mg, 1 tablett ved behov, inntil 4 ganger i døgnet. Siste time hos lege: 30.09.2025 kl. 10.00.
            """,
        ]
        for letter in letters { #expect(appointments(letter).isEmpty, "\(letter.prefix(30))") }
    }

    /// The time on its own line below the date, on the lines after it, under a label that stands
    /// alone, or right before the date.
    @Test(arguments: [
        ("Dato: tirsdag 3. juni 2025\nMøt kl.: 14.10", "14:10"),
        ("Dato: tirsdag 3. juni 2025\nSted: Poliklinikken, 2. etasje\nOppmøte kl. 08.15", "08:15"),
        ("Kl. 09.30 tirsdag 3. juni 2025", "09:30"),
        ("Du har fått time kl. 09.30\ntirsdag 3. juni 2025 ved poliklinikken.", "09:30"),
        ("Dato: tirsdag 3. juni 2025\nTid:\n14:10", "14:10"),
        ("Du har fått time ved poliklinikken 3. juni\n2025 klokken 10.45.", "10:45"),
        ("Dato: tirsdag 3. juni 2025\nMøt kl.:\n12.45\nSted: Resepsjonen", "12:45"),
        ("Dato: tirsdag 3. juni 2025\nTid: 14:10", "14:10"),
        ("Dato: tysdag 3. juni 2025\nMøt opp klokka 10.45 i skranken.", "10:45"),
        ("Dato: tysdag 3. juni 2025\nVer venleg og møt opp klokka 10.45 i skranken.", "10:45"),
        ("Tidspunkt for oppmøte: kl. 07.40\nOperasjonsdato: tirsdag 3. juni 2025", "07:40"),
        ("Dato: tirsdag 3. juni 2025\nMøt kl.: 09.45\nSted: Resepsjonen\nTid: 10.00", "10:00"),
    ] as [(String, String)])
    func timeOnItsOwnLineOrBeforeTheDate(lines: String, time: String) {
        let found = appointments("""
            St. Olavs hospital
            Trondheim, 12.05.2025
            INNKALLING TIL TIME
            Du er satt opp til undersøkelse ved Øyeavdelingen.
            \(lines)
            Avbestilling må skje senest 24 timer før timen.
            """)
        #expect(found.map(\.date) == ["2025-06-03"])
        #expect(found.first?.time == time)
    }

    /// Times that belong to something else are never the appointment's: opening hours, a telephone
    /// number, a sampling time, the time in the letter's date line.
    @Test(arguments: [
        "Dato: 12.05.2025 kl. 10.12\nInnkalling til time ved Øyeavdelingen\nDato: tirsdag 3. juni 2025",
        "Trondheim, 12.05.2025 kl. 10.12\nInnkalling til time ved Øyeavdelingen\nDato: tirsdag 3. juni 2025",
        "Dato: 12.05.2025\nInnkalling til time ved Øyeavdelingen\nDato: tirsdag 3. juni 2025\nTelefon 08.00–15.30",
        "Dato: 12.05.2025\nInnkalling til time ved Øyeavdelingen\nDato: tirsdag 3. juni 2025\nSentralbord: 73 86 80 00",
        "Dato: 12.05.2025\nInnkalling til time ved Øyeavdelingen\nDato: tirsdag 3. juni 2025\nTelefontid:\n08.00–15.30",
        "Dato: 12.05.2025\nNy time ved Laboratoriet\nDato: tirsdag 3. juni 2025\nPrøven ble tatt kl. 08.10",
        "Dato: 12.05.2025\nInnkalling til time ved Øyeavdelingen\nPrøve tatt kl. 08.10 tirsdag 3. juni 2025",
    ])
    func timesOfSomethingElse(text: String) {
        let found = appointments(text)
        #expect(found.count <= 1)
        #expect(found.allSatisfy { $0.time == nil }, "\(text)")
    }

    @Test func clockTimes() {
        #expect(ClockTime.first(in: " kl. 14.30")?.text == "14:30")
        #expect(ClockTime.first(in: ", klokken 9.05")?.text == "09:05")
        #expect(ClockTime.first(in: " 14:30 i hallen")?.text == "14:30")
        #expect(ClockTime.first(in: " - 14.03.2025") == nil)
        #expect(ClockTime.labelled("oppmøte: kl. 07.15 i resepsjonen")?.arrival == true)
        #expect(ClockTime.labelled("klokkeslett: 11.00")?.time.text == "11:00")
        #expect(ClockTime.labelled("tid: 25.99") == nil)
        #expect(ClockTime.labelled("møt kl.: 14.10")?.time.text == "14:10")
        // A mark glued before the marker ("*Kk1." for "kl."), a time after it; without a time, none.
        #expect(ClockTime.labelled("oppmøte: *kk1.07.55 i resepsjonen, bygg 1, 2. etasje")?.time.text == "07:55")
        #expect(ClockTime.labelled("oppmøte: *kk1 i resepsjonen") == nil)
        #expect(ClockTime.labelled("møt kl.: 14.10")?.arrival == true)
        #expect(ClockTime.labelled("tid: 14:10")?.arrival == false)
        #expect(ClockTime.labelled("telefon 08.00–15.30") == nil)
        #expect(ClockTime.labelled("sentralbord: 73 86 80 00") == nil)
        #expect(ClockTime.labelled("prøven ble tatt kl. 08.10") == nil)
        #expect(ClockTime.labelled("møt opp: 15 minutter før") == nil)
        #expect(ClockTime.labelAlone("møt kl.:")?.arrival == true)
        #expect(ClockTime.labelAlone("tid: kl. 10.00") == nil)
        #expect(ClockTime.ending("kl. 09.30 tirsdag ", weekdays: AppointmentFinder.weekdays)?.text == "09:30")
        #expect(ClockTime.ending("tatt 09.30 ", weekdays: AppointmentFinder.weekdays) == nil)
    }
}
