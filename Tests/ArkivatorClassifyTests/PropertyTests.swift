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
