import ArkivatorCore
@testable import ArkivatorClassify
import Testing

/// The sender is the institution that issues the letter: its letterhead, else what the letter says
/// of who bills, prescribes or signs; never the GP, a copy's addressee or the one who referred.
/// Letters written for these tests.
@Suite struct SenderReasoningTests {
    private func sender(_ text: String) -> String? {
        Classifier(vocabulary: .standard).classify(text, scanDate: CalendarDate(year: 2026, month: 6, day: 1)!).institution
    }

    @Test func aBillsSenderIsTheLetterheadNotTheReferringOffice() {
        #expect(sender("""
            Akershus universitetssykehus HF
            Kari Nordmann
            Storgata 1
            2010 Strømmen
            Dato: 12.03.2026
            Regning – egenandel
            Regningsnr.: 4471190
            Henvist av: Ola Hansen, Strømmen legesenter
            Betales til: Akershus universitetssykehus HF
            Kontonr.: 1503.22.12345 KID: 123456789012
            """) == "Akershus universitetssykehus")
    }

    @Test func whereTheLetterheadIsUnreadableTheOneToPayIsTheSender() {
        // The letterhead lost to a logo; the payment block names who bills.
        #expect(sender("""
            == ® ©
            Kari Nordmann
            Storgata 1
            9008 Tromsø
            Dato: 12.03.2026
            Regning
            Behandler: Ola Hansen
            Betalingsmottaker: Storgata legesenter
            Kontonummer: 1503.22.12345
            KID-nummer: 123456789012
            """) == "Storgata legesenter")
        #expect(sender("""
            ~~ ||
            Regning for laboratorieprøver
            Rekvirent: Kari Hansen, Madla legekontor
            Betales til: Unilabs Laboratoriemedisin
            """) == "Unilabs")
    }

    @Test func aLineThatOnlySaysWhatKindOfOfficeItIsNamesNoSender() {
        // The name's first letter lost to the logo; the second line only says what the office is.
        #expect(sender("""
            3 pjelkavik legesenter
            – Legekontor og helsestasjon for ungdom
            Langelandsvegen 17
            6010 Ålesund
            Dato 6. mai 2024
            Kari Nordmann
            Furulia 4
            1710 SARPSBORG
            REKNING – EIGENDEL
            Betalast til: Spjelkavik legesenter
            Kontonr.: 7032.18.53750
            """) == "Spjelkavik legesenter")
    }

    @Test func theGPNamedInAPrescriptionIsNotItsSender() {
        // A hospital's prescription names the patient's GP office near the top.
        #expect(sender("""
            Universitetssykehuset Nord-Norge HF
            Fastlege: Ola Hansen, Storgata legesenter
            E-resept
            Pasient: Kari Nordmann
            Forskrevet av: Per Olsen, overlege
            """) == "Universitetssykehuset Nord-Norge")
        // The letterhead unreadable: the GP office in the "Fastlege" line or under "Til fastlegen"
        // is the addressee's, not the sender's; the name under the closing is.
        #expect(sender("""
            ## =
            Til fastlegen: Ola Hansen
            Storgata legesenter
            Storgata 84
            Legemiddelliste ved utskrivning
            Pasient: Kari Nordmann
            Pasienten ble utskrevet fra medisinsk sengepost 10.03.2026.
            Paracet 500 mg tablett, 2 tabletter 3 ganger daglig
            Selo-Zok 50 mg depottablett, 1 tablett om morgenen
            Med vennlig hilsen
            Nordlandssykehuset HF
            Per Olsen, overlege
            """) == "Nordlandssykehuset")
        #expect(sender("""
            Fastlege Ola Hansen, Storgata legesenter
            Reseptliste
            Pasient: Kari Nordmann
            Forskrevet av: Per Olsen, Akershus universitetssykehus
            """) == "Akershus universitetssykehus")
    }

    @Test func aPrescriptionFromTheGPOfficeIsTheOffices() {
        #expect(sender("""
            Madla legekontor
            Allmennpraksis
            Dato: 12.03.2026
            Utskrift av e-resept
            Forskrevet av: Kari Hansen
            Etter utskrivning fra Stavanger universitetssjukehus er medisinene justert.
            """) == "Madla legekontor")
    }

    @Test func theFooterNamesTheSenderWhenNothingElseDoes() {
        #expect(sender("""
            (7)
            Kari Nordmann
            Storgata 1
            Innkalling
            Du har fått time 12.04.2026 kl. 10.00.
            Ta med en liste over medisinene du bruker.
            Gi beskjed hvis timen ikke passer.
            Med hilsen
            Ortopedisk poliklinikk
            Vestre Viken HF · Postboks 800, 3004 Drammen · Tlf. 03525
            """) == "Vestre Viken")
        // A sentence of the body that names an institution is no footer.
        #expect(sender("""
            Postboks 313
            Lillestrøm kommune 2001 Lillestrøm
            Forvaltningskontoret www.lillestrom.kommune.no
            Datert: 27.01.2025
            Melding om ny fastlege
            Fra 01.01.2025 får du Karin Ruud ved Bragernes legesenter som ny fastlege.
            Vil du heller bytte til en annen lege, kan du gjøre det på helsenorge.no.
            Lillestrøm kommune – Postboks 313, 2001 Lillestrøm
            """) == "Lillestrøm kommune")
    }
}
