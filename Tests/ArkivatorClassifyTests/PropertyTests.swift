@testable import ArkivatorCore
@testable import ArkivatorClassify
import PropertyBased
import Testing

/// Property-based tests: the date parser and the fødselsnummer validator over many generated inputs.
@Suite struct PropertyTests {
    /// A valid fødselsnummer made from a birth date and an individual number, when one exists.
    static func makeNumber(year: Int, month: Int, day: Int, individual: Int, dNumber: Bool) -> String? {
        guard CalendarDate.isValid(year: year, month: month, day: day),
              Fodselsnummer.year(yy: year % 100, individual: individual) == year else { return nil }
        let d = (dNumber ? day + 40 : day)
        let first9 = [d / 10, d % 10, month / 10, month % 10, (year % 100) / 10, year % 10,
                      individual / 100, (individual / 10) % 10, individual % 10]
        guard let (k1, k2) = Fodselsnummer.controlDigits(first9) else { return nil }
        return (first9 + [k1, k2]).map(String.init).joined()
    }

    @Test func everyValidDateParsesBackInEveryForm() async {
        await propertyCheck(count: 400, input: Gen.int(in: 1950...2039), Gen.int(in: 1...12), Gen.int(in: 1...31), Gen.int(in: 0...6)) {
            year, month, day, style in
            guard let date = CalendarDate(year: year, month: month, day: day) else { return }
            // Two-digit years are read as 1940–2039.
            if style == 1 && !(1940...2039).contains(year) { return }
            let text = "Dato: " + NorwegianDate.format(date, style: style) + " her"
            let found = NorwegianDate.find(in: text)
            #expect(found.map(\.date) == [date], "\(text)")
        }
    }

    @Test func everyValidNumberPasses() async {
        await propertyCheck(count: 400, input: Gen.int(in: 1900...2039), Gen.int(in: 1...12), Gen.int(in: 1...31),
                            Gen.int(in: 0...999), Gen.bool) { year, month, day, individual, dNumber in
            guard let number = Self.makeNumber(year: year, month: month, day: day, individual: individual, dNumber: dNumber) else { return }
            let parsed = try? Fodselsnummer(number)
            #expect(parsed?.digits == number)
            #expect(parsed?.isDNumber == dNumber)
            #expect(parsed?.birthDateISO == CalendarDate(year: year, month: month, day: day)?.iso)
        }
    }

    @Test func everySingleDigitChangeFails() async {
        await propertyCheck(count: 300, input: Gen.int(in: 1900...2039), Gen.int(in: 1...12), Gen.int(in: 1...28),
                            Gen.int(in: 0...999), Gen.int(in: 0...10), Gen.int(in: 1...9)) { year, month, day, individual, position, delta in
            guard let number = Self.makeNumber(year: year, month: month, day: day, individual: individual, dNumber: false) else { return }
            var digits = number.compactMap(\.wholeNumberValue)
            digits[position] = (digits[position] + delta) % 10
            let changed = digits.map(String.init).joined()
            #expect((try? Fodselsnummer(changed)) == nil, "\(changed) from \(number)")
        }
    }
}

@Suite struct FodselsnummerTests {
    @Test func problemsAreNamed() {
        #expect(throws: Fodselsnummer.Problem.notElevenDigits) { try Fodselsnummer("1234567890") }
        #expect(throws: Fodselsnummer.Problem.wrongControlDigits) { try Fodselsnummer("26018704455") }
        // 31 February with valid control digits
        let first9 = [3, 1, 0, 2, 8, 7, 0, 4, 4]
        if let (k1, k2) = Fodselsnummer.controlDigits(first9) {
            #expect(throws: Fodselsnummer.Problem.impossibleDate) { try Fodselsnummer((first9 + [k1, k2]).map(String.init).joined()) }
        }
    }

    @Test func printsMasked() throws {
        let number = try #require(PropertyTests.makeNumber(year: 1987, month: 1, day: 26, individual: 44, dNumber: false))
        let parsed = try Fodselsnummer(number)
        #expect("\(parsed)" == "260187 •••••")
        #expect(!"\(parsed)".contains(number))
        #expect(try Fodselsnummer(String(number.prefix(6)) + " " + String(number.suffix(5))).digits == number)
    }
}

/// Who a letter is about: never a health or case worker, never an institution, whatever the
/// names, the role words and where in the letter they stand.
@Suite struct PersonRoleTests {
    static let firstNames = ["Tone", "Kari", "Ola", "Ingrid", "Per Arne", "Åse", "Nils", "Marit"]
    static let lastNames = ["Aasland", "Nordmann", "Bjørkli", "Lunde", "Haugland", "Sæther"]
    static let roles = ["Lege", "Fastlege", "Overlege", "Saksbehandler", "Sykepleier", "Psykolog", "Spesialist"]
    static let institutions = ["Universitetssykehuset Nord-Norge", "Helse Vestvik HF", "Bydelslegekontoret Sentrum",
                               "NAV Vestlia", "Vestlia kommune", "Haugsund legesenter", "Sørbyen DPS"]

    @Test func aNameBesideARoleWordNeverBecomesThePerson() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...7), Gen.int(in: 0...5), Gen.int(in: 0...6), Gen.int(in: 0...3)) {
            first, last, role, layout in
            let name = "\(Self.firstNames[first]) \(Self.lastNames[last])"
            let worker = "\(Self.roles[role]) \(name)"
            // The worker shares a household member's name: still not the person.
            let family = [FamilyProfile(name: name, birthDate: "1980-01-01")]
            let text = switch layout {
            case 0: "Vestvik legesenter\n\(worker)\nStorgata 4\n4630 Vestvik\n\nDato: 02.03.2025\nResept\nDu kan hente medisinene på apoteket."
            case 1: "Vestvik sykehus\nDato: 02.03.2025\nEpikrise\nPasient: \(worker)\nInnlagt for observasjon."
            case 2: "\(worker)\nVestvik legesenter\nPostboks 12\n4630 Vestvik\n\nDato: 02.03.2025\nSvar på prøver\nPrøvene er normale."
            default: "Vestvik sykehus\nDato: 02.03.2025\nInnkalling\nGjelder: \(worker), født 01.01.1980\nDu har fått time."
            }
            let result = Classifier(family: family).classify(text, scanDate: CalendarDate(year: 2025, month: 3, day: 10)!)
            #expect(result.familyMember == nil, "\(text)")
            #expect(result.person.map { !$0.contains(Self.lastNames[last]) } ?? true, "\(text) → \(result.person ?? "")")
        }
    }

    @Test func anInstitutionAddressedNeverBecomesThePerson() async {
        await propertyCheck(count: 100, input: Gen.int(in: 0...6), Gen.int(in: 0...1)) { index, kind in
            let institution = Self.institutions[index]
            let text = kind == 0
                ? "Vestvik legesenter\nDato: 02.03.2025\n\n\(institution)\nPostboks 100\n9038 Tromsø\n\nHenvisning\nJeg henviser til vurdering."
                : "Vestvik legesenter\nDato: 02.03.2025\nHenvisning\nGjelder: \(institution)\nJeg henviser til vurdering."
            let result = Classifier(family: []).classify(text, scanDate: CalendarDate(year: 2025, month: 3, day: 10)!)
            #expect(result.person != institution, "\(text)")
        }
    }
}
