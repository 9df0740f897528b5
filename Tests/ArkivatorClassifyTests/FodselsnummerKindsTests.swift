@testable import ArkivatorCore
import PropertyBased
import Testing

/// Every kind of fødselsnummer a letter may carry, made here with arithmetic of the tests' own
/// (not the detector's): ordinary, D (day + 40), H (month + 40), synthetic (month + 80), D with
/// either month form, each with the first control digit of the rule before 2032 or of the rule
/// from 2032 (the first control sum may leave 0, 1, 2 or 3). Each is found and masked, alone,
/// spaced and in a sentence; numbers whose control digits are wrong never are.
@Suite struct FodselsnummerKindsTests {
    static let w1 = [3, 7, 6, 1, 8, 9, 4, 5, 2]
    static let w2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]

    /// A number for the first nine digits whose first control sum leaves `remainder`, or nil
    /// when a control digit would be 10.
    static func withControls(_ first9: [Int], remainder: Int) -> String? {
        let s1 = zip(first9, w1).map { $0 * $1 }.reduce(0, +)
        var k1 = remainder - s1 % 11
        if k1 < 0 { k1 += 11 }
        guard k1 <= 9 else { return nil }
        let s2 = zip(first9 + [k1], w2).map { $0 * $1 }.reduce(0, +)
        let k2 = (11 - s2 % 11) % 11
        guard k2 <= 9 else { return nil }
        return (first9 + [k1, k2]).map(String.init).joined()
    }

    static func first9(day: Int, month: Int, yy: Int, individual: Int) -> [Int] {
        [day / 10, day % 10, month / 10, month % 10, yy / 10, yy % 10, individual / 100, individual / 10 % 10, individual % 10]
    }

    static let seriesOffsets: [Fodselsnummer.Series] = [.ordinary, .hNumber, .synthetic]

    @Test func everyKindIsFoundAndMasked() async {
        await propertyCheck(count: 600, input: Gen.int(in: 1...28), Gen.int(in: 1...12), Gen.int(in: 0...99),
                            Gen.int(in: 0...999), Gen.int(in: 0...5), Gen.int(in: 0...3)) { day, month, yy, individual, kind, remainder in
            let dNumber = kind >= 3
            let series = Self.seriesOffsets[kind % 3]
            let nine = Self.first9(day: dNumber ? day + 40 : day, month: month + series.monthOffset, yy: yy, individual: individual)
            guard let number = Self.withControls(nine, remainder: remainder) else { return }
            let parsed = try? Fodselsnummer(number)
            #expect(parsed?.digits == number, "\(number)")
            #expect(parsed?.isDNumber == dNumber && parsed?.series == series, "\(number)")
            #expect(parsed?.usesControlRule2032 == (remainder != 0), "\(number)")
            #expect(parsed?.birthDate.month == month && parsed?.birthDate.day == day, "\(number)")
            let masked = String(number.prefix(6)) + " •••••"
            for printed in [number, number.prefix(6) + " " + number.suffix(5)] {
                let text = "Pasient: Kari Nordmann, fnr. \(printed). Tlf. 22 33 44 55"
                #expect(Fodselsnummer.matches(in: text).map(\.number.digits) == [number], "\(text)")
                let redacted = Redaction.redact(text)
                #expect(redacted == "Pasient: Kari Nordmann, fnr. \(masked). Tlf. 22 33 44 55", "\(redacted)")
            }
        }
    }

    @Test func wrongControlDigitsAreNeverANumber() async {
        await propertyCheck(count: 600, input: Gen.int(in: 1...28), Gen.int(in: 1...12), Gen.int(in: 0...99),
                            Gen.int(in: 0...999), Gen.int(in: 0...5), Gen.int(in: 0...99)) { day, month, yy, individual, kind, controls in
            let series = Self.seriesOffsets[kind % 3]
            let nine = Self.first9(day: kind >= 3 ? day + 40 : day, month: month + series.monthOffset, yy: yy, individual: individual)
            let k1 = controls / 10, k2 = controls % 10
            let s1 = (zip(nine, Self.w1).map { $0 * $1 }.reduce(0, +) + k1) % 11
            let s2 = (zip(nine + [k1], Self.w2).map { $0 * $1 }.reduce(0, +) + k2) % 11
            // Right only when the second sum leaves 0 and the first 0, 1, 2 or 3.
            guard s2 != 0 || s1 > 3 else { return }
            let number = (nine + [k1, k2]).map(String.init).joined()
            #expect((try? Fodselsnummer(number)) == nil, "\(number)")
            #expect(Fodselsnummer.matches(in: "Ref. \(number) og \(number.prefix(6)) \(number.suffix(5))").isEmpty, "\(number)")
            #expect(Redaction.redact("Ref. \(number)") == "Ref. \(number)")
        }
    }

    @Test func randomDigitsWithWrongControlsStay() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...99_999), Gen.int(in: 0...999_999)) { high, low in
            let digits = String(format: "%05d%06d", high, low)
            let d = digits.compactMap(\.wholeNumberValue)
            let s1 = zip(d.prefix(9), Self.w1).map { $0 * $1 }.reduce(0, +) + d[9]
            let s2 = zip(d.prefix(10), Self.w2).map { $0 * $1 }.reduce(0, +) + d[10]
            guard s2 % 11 != 0 || s1 % 11 > 3 else { return }
            #expect(Fodselsnummer.matches(in: "Nr. \(digits)").isEmpty, "\(digits)")
        }
    }

    @Test func theKindsAsNamed() throws {
        // 26 January 1987, individual 044: ordinary, then each kind built on it.
        let nine = Self.first9(day: 26, month: 1, yy: 87, individual: 44)
        let ordinary = try #require(Self.withControls(nine, remainder: 0))
        #expect(try Fodselsnummer(ordinary).series == .ordinary)
        let h = try #require(Self.withControls(Self.first9(day: 26, month: 41, yy: 87, individual: 44), remainder: 0))
        #expect(try Fodselsnummer(h).series == .hNumber)
        #expect(try Fodselsnummer(h).birthDateISO == "1987-01-26")
        let synthetic = try #require(Self.withControls(Self.first9(day: 66, month: 81, yy: 87, individual: 44), remainder: 0))
        #expect(try Fodselsnummer(synthetic).series == .synthetic && Fodselsnummer(synthetic).isDNumber)
        // The rule from 2032: the same first nine digits with another first control digit.
        var found2032 = false
        for remainder in 1...3 {
            guard let number = Self.withControls(nine, remainder: remainder) else { continue }
            #expect(try Fodselsnummer(number).usesControlRule2032)
            #expect(Fodselsnummer.controlDigits(nine, remainder: remainder).map { "\($0.0)\($0.1)" } == String(number.suffix(2)))
            found2032 = true
        }
        #expect(found2032)
        // Months no series uses, and days past 31 + 40, are no number.
        for month in [13, 33, 53, 61, 79, 93] {
            for individual in 0..<40 {
                guard let number = Self.withControls(Self.first9(day: 10, month: month, yy: 80, individual: individual), remainder: 0) else { continue }
                #expect(throws: Fodselsnummer.Problem.impossibleDate) { try Fodselsnummer(number) }
            }
        }
    }
}
