import ArkivatorCore
import Foundation

/// A member as given by a person or a file, validated.
struct FamilyMemberRow {
    var name: String
    var birthDate: String?
    var fodselsnummer: Fodselsnummer?

    init(name rawName: String, birthDate rawDate: String?, fodselsnummer rawNumber: String?) throws(FamilyError) {
        let name = Self.normalise(rawName)
        guard !name.isEmpty else { throw FamilyError.emptyName }
        guard FamilyError.safe(name) == name, !name.allSatisfy({ $0.isNumber }) else { throw FamilyError.numericName }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }) else {
            throw FamilyError.badCharacters
        }
        guard name.count <= FamilyStore.nameLimit else { throw FamilyError.longName(FamilyStore.nameLimit) }

        var number: Fodselsnummer?
        if let rawNumber = rawNumber?.trimmingCharacters(in: .whitespacesAndNewlines), !rawNumber.isEmpty {
            do {
                number = try Fodselsnummer(rawNumber)
            } catch {
                throw FamilyError.invalid(error, digitCount: rawNumber.filter(\.isNumber).count)
            }
        }
        var birthDate: String?
        if let rawDate = rawDate?.trimmingCharacters(in: .whitespacesAndNewlines), !rawDate.isEmpty {
            birthDate = try Self.validDate(rawDate)
        }
        if let number, let birthDate, birthDate != number.birthDateISO {
            throw FamilyError.mismatch(birthDate: birthDate, fromNumber: number.birthDateISO)
        }
        self.name = name
        self.birthDate = birthDate ?? number?.birthDateISO
        self.fodselsnummer = number
    }

    /// Composed Unicode (NFC), surrounding space trimmed, inner runs of space made one.
    static func normalise(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping
            .split(whereSeparator: { $0.isWhitespace })
            .joined(separator: " ")
    }

    /// `YYYY-MM-DD`, a real calendar day from 1850 to today.
    static func validDate(_ text: String) throws(FamilyError) -> String {
        guard let (year, month, day) = CalendarDate.isoComponents(text) else { throw FamilyError.badBirthDate }
        let today = Calendar(identifier: .gregorian).dateComponents([.year, .month, .day], from: Date())
        let now = (today.year ?? 9999) * 10_000 + (today.month ?? 12) * 100 + (today.day ?? 31)
        guard year >= 1850, year * 10_000 + month * 100 + day <= now else { throw FamilyError.futureBirthDate }
        return text
    }
}
