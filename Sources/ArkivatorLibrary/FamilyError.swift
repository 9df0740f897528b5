import ArkivatorCore

/// Why a family operation was refused, with what to do about it.
///
/// Messages never hold a fødselsnummer: user input is echoed only through ``FamilyError/safe(_:)``,
/// which hides every run of six or more digits.
public struct FamilyError: UserFacingError, Sendable, Equatable {
    public enum Code: String, Sendable {
        case invalidName, invalidBirthDate, invalidFodselsnummer, birthDateMismatch
        case duplicateName, notFound, ambiguousName, wrongKey, importUnreadable, importInvalid
    }

    /// A stable, language-independent code.
    public let code: Code
    public var errorCode: String { code.rawValue }
    public let userMessage: UserMessage

    init(_ code: Code, nb: String, en: String) {
        self.code = code
        self.userMessage = UserMessage(nb: nb, en: en)
    }

    /// The same error, said about one member of an import file.
    func inImport(file: String, member index: Int, name: String?) -> FamilyError {
        let who = name.map { " («\(Self.safe($0))»)" } ?? ""
        let whoEN = name.map { " ('\(Self.safe($0))')" } ?? ""
        return FamilyError(code,
            nb: "\(file), medlem nr. \(index + 1)\(who): \(userMessage.norwegian) Ingen ble importert.",
            en: "\(file), member no. \(index + 1)\(whoEN): \(userMessage.english) Nobody was imported.")
    }

    /// User text safe to repeat in a message: any run of six or more digits becomes `•••`, so a
    /// fødselsnummer typed in the wrong place is never printed back.
    static func safe(_ text: String) -> String {
        var result = ""
        var digits = ""
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            result += digits.count >= 6 ? "•••" : digits
            digits = ""
            result.append(character)
        }
        result += digits.count >= 6 ? "•••" : digits
        return result
    }

    // MARK: The errors

    static let emptyName = FamilyError(.invalidName,
        nb: "Navnet er tomt. Skriv navnet på familiemedlemmet, for eksempel «Kari Nordmann».",
        en: "The name is empty. Write the family member's name, for example 'Kari Nordmann'.")

    static let numericName = FamilyError(.invalidName,
        nb: "Navnet inneholder et langt tall (et fødselsnummer?). Skriv bare navnet; fødselsnummeret går i --fnr.",
        en: "The name contains a long number (a fødselsnummer?). Write only the name; the fødselsnummer goes in --fnr.")

    static let badCharacters = FamilyError(.invalidName,
        nb: "Navnet inneholder kontrolltegn. Skriv navnet med vanlige bokstaver.",
        en: "The name contains control characters. Write the name in ordinary letters.")

    static func longName(_ limit: Int) -> FamilyError {
        FamilyError(.invalidName, nb: "Navnet er for langt (mer enn \(limit) tegn). Bruk et kortere navn.",
                    en: "The name is too long (more than \(limit) characters). Use a shorter name.")
    }

    static let badBirthDate = FamilyError(.invalidBirthDate,
        nb: "Fødselsdatoen er ikke en gyldig dato. Skriv den som ÅÅÅÅ-MM-DD, for eksempel 1987-01-26.",
        en: "The birth date is not a valid date. Write it as YYYY-MM-DD, for example 1987-01-26.")

    static let futureBirthDate = FamilyError(.invalidBirthDate,
        nb: "Fødselsdatoen ligger i fremtiden eller før 1850. Sjekk årstallet.",
        en: "The birth date lies in the future or before 1850. Check the year.")

    static func invalid(_ problem: Fodselsnummer.Problem, digitCount: Int) -> FamilyError {
        switch problem {
        case .notElevenDigits:
            FamilyError(.invalidFodselsnummer,
                nb: "Fødselsnummeret må ha 11 sifre, men har \(digitCount). Sjekk at du har fått med alle sifrene. Ingenting ble lagret.",
                en: "The fødselsnummer must have 11 digits, but has \(digitCount). Check that you have all the digits. Nothing was saved.")
        case .impossibleDate:
            FamilyError(.invalidFodselsnummer,
                nb: "De seks første sifrene i fødselsnummeret er ingen gyldig dato (DDMMÅÅ). Sjekk for skrivefeil. Ingenting ble lagret.",
                en: "The first six digits of the fødselsnummer are not a valid date (DDMMYY). Check for typos. Nothing was saved.")
        case .wrongControlDigits:
            FamilyError(.invalidFodselsnummer,
                nb: "Kontrollsifrene i fødselsnummeret stemmer ikke; trolig en skrivefeil. Sjekk nummeret. Ingenting ble lagret.",
                en: "The control digits of the fødselsnummer do not match; probably a typo. Check the number. Nothing was saved.")
        }
    }

    static func mismatch(birthDate: String, fromNumber: String) -> FamilyError {
        FamilyError(.birthDateMismatch,
            nb: "Fødselsdatoen \(birthDate) stemmer ikke med fødselsnummeret, som gir \(fromNumber). Rett den som er feil, eller utelat fødselsdatoen.",
            en: "The birth date \(birthDate) does not match the fødselsnummer, which gives \(fromNumber). Correct the wrong one, or leave out the birth date.")
    }

    static func duplicate(_ name: String, id: Int) -> FamilyError {
        FamilyError(.duplicateName,
            nb: "Det finnes allerede et familiemedlem som heter «\(safe(name))» (id \(id)). Bruk et annet navn, eller fjern det gamle med «arkivator family remove \(id)».",
            en: "There already is a family member called '\(safe(name))' (id \(id)). Use another name, or remove the old one with 'arkivator family remove \(id)'.")
    }

    public static func notFound(_ nameOrID: String) -> FamilyError {
        FamilyError(.notFound,
            nb: "Fant ingen i familien med navnet eller id-en «\(safe(nameOrID))». Se hvem som finnes med «arkivator family list».",
            en: "Found nobody in the family with the name or id '\(safe(nameOrID))'. See who is there with 'arkivator family list'.")
    }

    static func ambiguous(_ name: String, _ matches: [String]) -> FamilyError {
        let names = matches.map(safe).joined(separator: ", ")
        return FamilyError(.ambiguousName,
            nb: "«\(safe(name))» passer på flere i familien: \(names). Skriv mer av navnet, eller bruk id-en fra «arkivator family list».",
            en: "'\(safe(name))' matches several in the family: \(names). Type more of the name, or use the id from 'arkivator family list'.")
    }

    static func wrongKey(_ name: String) -> FamilyError {
        FamilyError(.wrongKey,
            nb: "Fødselsnummeret til «\(safe(name))» kan ikke låses opp med denne nøkkelen. Bruk nøkkelen det ble lagret med: legg tilbake library.key i biblioteket, eller sett ARKIVATOR_KEY.",
            en: "The fødselsnummer of '\(safe(name))' cannot be unlocked with this key. Use the key it was saved with: put library.key back in the library, or set ARKIVATOR_KEY.")
    }

    static func unreadable(_ path: String, reason: String) -> FamilyError {
        FamilyError(.importUnreadable,
            nb: "Kunne ikke lese \(path) (\(reason)). Sjekk navnet og at du har lesetilgang.",
            en: "Could not read \(path) (\(reason)). Check the name and that you may read it.")
    }

    static func importInvalid(_ path: String, nb: String, en: String) -> FamilyError {
        FamilyError(.importInvalid,
            nb: "\(path): \(nb) Forventet {\"members\": [{\"name\": …, \"birthDate\": \"ÅÅÅÅ-MM-DD\", \"personnummer\": \"11 sifre\"}]}. Ingen ble importert.",
            en: "\(path): \(en) Expected {\"members\": [{\"name\": …, \"birthDate\": \"YYYY-MM-DD\", \"personnummer\": \"11 digits\"}]}. Nobody was imported.")
    }
}
