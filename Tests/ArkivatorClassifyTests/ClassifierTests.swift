import ArkivatorCore
@testable import ArkivatorClassify
import Foundation
import Testing

/// The rules on letters written for these tests (not from any corpus).
@Suite struct ClassifierTests {
    static let scan = CalendarDate(year: 2026, month: 1, day: 10)!

    static func number(_ date: String, individual: Int) -> String {
        // date as DDMMYY
        let first9 = (date + String(format: "%03d", individual)).compactMap(\.wholeNumberValue)
        guard let (k1, k2) = Fodselsnummer.controlDigits(first9) else { return number(date, individual: individual + 1) }
        return (first9 + [k1, k2]).map(String.init).joined()
    }

    static let kariNumber = number("140380", individual: 123)
    static let family = [
        FamilyProfile(name: "Kari Nordmann", fodselsnummer: try? Fodselsnummer(kariNumber)),
        FamilyProfile(name: "Kari Solberg", birthDate: "2015-06-01"),
        FamilyProfile(name: "Ola Nordmann", birthDate: "1978-02-11"),
    ]

    private func classify(_ text: String) -> Classification {
        Classifier(family: Self.family).classify(text, scanDate: Self.scan)
    }

    static let epikrise = """
        Sørlandet sykehus
        Ortopedisk avdeling
        Ola Nordmann
        Storgata 1
        4630 KRISTIANSAND
        Vår ref.: 25/1234-5
        Kristiansand, 3. november 2025
        EPIKRISE
        Pasient: Nordmann, Ola
        Innlagt: 28.10.2025 Utskrevet: 01.11.2025
        Diagnose: Brudd i ankelen. Behandling og forløp: operert med plate og skruer.
        Kontroll ved ortopedisk poliklinikk om seks uker.
        Med vennlig hilsen
        """

    @Test func readsAnEpikrise() {
        let result = classify(Self.epikrise)
        #expect(result.docType == .epikrise)
        #expect(result.documentDate == "2025-11-03")
        #expect(result.institution == "Sørlandet sykehus")
        #expect(result.specialty == "Ortopedi")
        #expect(result.familyMember == "Ola Nordmann")
        #expect(result.person == "Ola Nordmann")
        #expect(result.title.hasPrefix("2025-11-03 Epikrise ortopedisk avdeling Sørlandet sykehus"))
        #expect(result.needsReview.isEmpty)
    }

    @Test func matchesByFodselsnummerEvenWithoutAName() {
        let text = "Fürst medisinsk laboratorium\nDato: 05.05.2025\nPRØVESVAR\nFødselsnummer: \(Self.kariNumber.prefix(6)) \(Self.kariNumber.suffix(5))\nAnalyse Resultat Referanseområde\nHemoglobin 13,1 g/dL 11,7 - 15,3"
        let result = classify(text)
        #expect(result.docType == .labSvar)
        #expect(result.familyMember == "Kari Nordmann")
        #expect(result.containsFodselsnummer)
        #expect(!result.title.contains(Self.kariNumber))
        #expect(!result.keywords.contains { $0.contains(Self.kariNumber.prefix(6)) })
    }

    @Test func twoMembersWithTheSameFirstNameAreNotConfused() {
        let text = "Lundsiden legekontor\nDato: 01.02.2025\nInnkalling til kontroll\nPasient: Kari Solberg\nDu har fått time hos fastlegen."
        #expect(classify(text).familyMember == "Kari Solberg")
        let other = "Lundsiden legekontor\nDato: 01.02.2025\nInnkalling til kontroll\nPasient: Kari Hansen\nDu har fått time hos fastlegen."
        let result = classify(other)
        #expect(result.familyMember == nil)
        #expect(result.person == "Kari Hansen")
    }

    @Test func toleratesNameVariants() {
        for printed in ["Nordmann, Ola", "Ola Johan Nordmann", "Ola Nordrnann", "Nordmann, Ola Johan"] {
            #expect(PersonMatcher.sameName(printed, "Ola Nordmann"), "\(printed)")
        }
        #expect(!PersonMatcher.sameName("Ola Hansen", "Ola Nordmann"))
        #expect(!PersonMatcher.sameName("O. Nordmann", "Ola Nordmann"))
    }

    @Test func aReferralIsFiledUnderTheSendingOffice() {
        let text = """
            Solbakken legesenter
            Allmennmedisin
            Drammen, 12.03.2025
            Vestre Viken
            Drammen sykehus
            Henvisning til vurdering
            Pasient: Per Hansen
            Jeg henviser herved pasienten og ber om vurdering ved nevrologisk poliklinikk.
            """
        let result = classify(text)
        #expect(result.docType == .henvisning)
        #expect(result.institution == "Solbakken legesenter")
        #expect(result.documentDate == "2025-03-12")
    }

    @Test func nynorskVedtak() {
        let text = """
            Voss herad
            Tildelingskontoret
            Voss, 5.3.2025
            MELDING OM VEDTAK
            Gjeld: Ola Nordmann
            Du har søkt om heimehjelp. Søknaden er innvilga.
            Grunngjeving: du treng hjelp til reinhald.
            Du har rett til å klage innan tre veker.
            """
        let result = classify(text)
        #expect(result.docType == .vedtak)
        #expect(result.documentDate == "2025-03-05")
        #expect(result.institution == "Voss herad")
    }

    @Test func titlesHaveTheRightShape() {
        for text in [Self.epikrise, "Et brev\nuten noe mer", "NAV\nVedtak om stønad\n01.09.2025"] {
            let title = classify(text).title
            #expect(title.range(of: #"^\d{4}-\d{2}-\d{2} \S.{3,}$"#, options: .regularExpression) != nil, "\(title)")
            let words = title.split(separator: " ").count - 1
            #expect((2...10).contains(words), "\(title)")
        }
    }

    /// Every patient label introduces the person: "<Label>: Ola Nordmann".
    @Test func everyPatientLabelWorks() {
        for label in Vocabulary.standard.labels.patient {
            let text = "Sykehuset\nDato: 01.02.2025\n\(label.prefix(1).uppercased() + label.dropFirst()): Ola Nordmann\nBrev"
            #expect(classify(text).familyMember == "Ola Nordmann", "\(label)")
        }
    }

    /// Every other-date label keeps its date from being taken as the letter's date.
    @Test func everyOtherDateLabelLoses() {
        for label in Vocabulary.standard.labels.otherDate where label.count > 2 {
            let text = "Sykehuset\nDato: 01.02.2025\nBrev\n\(label) 15.03.2025"
            #expect(classify(text).documentDate == "2025-02-01", "\(label)")
        }
    }

    @Test func vocabularyFilesLoad() throws {
        let vocabulary = Vocabulary.standard
        #expect(vocabulary.institutions.count > 100)
        #expect(vocabulary.specialties.count > 30)
        #expect(Set(vocabulary.typeCues.keys) == Set(DocumentType.allCases.map(\.rawValue)))
        #expect(vocabulary.stopwords.contains("og"))
        #expect(vocabulary.labels.letterDate.contains("dato"))
        #expect(vocabulary.labels.otherDate.contains("født"))
        #expect(vocabulary.labels.patient.contains("pasient"))
        #expect(vocabulary.labels.birth.contains("født"))
        // Every institution and specialty has a name; no alias names two institutions.
        var owners: [String: String] = [:]
        for institution in vocabulary.institutions {
            #expect(!institution.name.isEmpty)
            for form in [institution.name] + institution.aliases {
                let key = Fuzzy.normalized(form)
                if let owner = owners[key], owner != institution.name { Issue.record("\(form): \(owner) and \(institution.name)") }
                owners[key] = institution.name
            }
        }
    }
}
