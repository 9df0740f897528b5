import ArkivatorCore

/// Why the library refused or could not finish something, in plain words (Bokmål and English).
public struct LibraryFailure: UserFacingError, Sendable, Equatable {
    /// A stable code for scripts and tests.
    public enum Code: String, Sendable {
        case duplicate, inTrash, notFound, ambiguous, notInTrash, wrongKey, sealing
        case trashed, nothingToChange, badTitle, emptyQuery, targetExists, fileMissing, busy
        case noUploadJob, alreadyUploaded, closed, badShareDays, noLettersToShare, badAppointment, noAppointment
        case backupFolderMissing, notABackup, libraryNotEmpty, libraryInUse, keyMissingForBackup, keyDoesNotFit
    }

    public let code: Code
    public var errorCode: String { code.rawValue }
    public let userMessage: UserMessage

    init(_ code: Code, nb: String, en: String) {
        self.code = code
        self.userMessage = UserMessage(nb: nb, en: en)
    }

    public static func duplicate(_ title: String, id: String) -> LibraryFailure {
        .init(.duplicate, nb: "Allerede i biblioteket som «\(title)» (\(id)).",
              en: "Already in the library as “\(title)” (\(id)).")
    }

    public static func inTrash(_ title: String, id: String) -> LibraryFailure {
        .init(.inTrash, nb: "Ligger i papirkurven som «\(title)». Hent det tilbake med: arkivator restore \(id)",
              en: "Is in the trash as “\(title)”. Bring it back with: arkivator restore \(id)")
    }

    static func notFound(_ id: String) -> LibraryFailure {
        .init(.notFound, nb: "Fant ikke dokument «\(id)». Se id-ene med: arkivator list",
              en: "No document “\(id)”. See the ids with: arkivator list")
    }

    static func ambiguous(_ id: String, count: Int) -> LibraryFailure {
        .init(.ambiguous, nb: "«\(id)» passer til \(count) dokumenter. Skriv flere tegn av id-en.",
              en: "“\(id)” fits \(count) documents. Type more characters of the id.")
    }

    static func notInTrash(_ id: String) -> LibraryFailure {
        .init(.notInTrash, nb: "Dokument \(id) ligger ikke i papirkurven.", en: "Document \(id) is not in the trash.")
    }

    static let wrongKey = LibraryFailure(.wrongKey,
        nb: "Kunne ikke åpne de skjulte fødselsnumrene: nøkkelfilen (library.key) passer ikke til biblioteket. Bruk nøkkelen biblioteket ble laget med.",
        en: "Could not open the hidden national ID numbers: the key file (library.key) does not fit this library. Use the key the library was made with.")

    static let sealing = LibraryFailure(.sealing,
        nb: "Kunne ikke kryptere fødselsnummeret. Dette er en feil i arkivator; meld fra.",
        en: "Could not encrypt the national ID number. This is a bug in arkivator; please report it.")

    public static func trashed(_ id: String) -> LibraryFailure {
        .init(.trashed, nb: "Dokument \(id) ligger i papirkurven. Hent det tilbake først: arkivator restore \(id)",
              en: "Document \(id) is in the trash. Bring it back first: arkivator restore \(id)")
    }

    static let nothingToChange = LibraryFailure(.nothingToChange,
        nb: "Ingenting å endre: oppgi minst én av --title, --type, --person, --date, --institution, --text-file, --ocr-text.",
        en: "Nothing to change: give at least one of --title, --type, --person, --date, --institution, --text-file, --ocr-text.")

    static let badAppointment = LibraryFailure(.badAppointment,
        nb: "Timen trenger en dato som ÅÅÅÅ-MM-DD (for eksempel 2025-06-03) og klokkeslettet, om det er med, som TT:MM (for eksempel 09:45). Sted, hva du skal ta med og hvordan timen endres kan ha høyst 500 tegn hver.",
        en: "The appointment needs a date as YYYY-MM-DD (for example 2025-06-03) and the time, if given, as HH:MM (for example 09:45). The place, what to bring and how to change it can have at most 500 characters each.")

    static let noAppointment = LibraryFailure(.noAppointment,
        nb: "Fant ikke timen i dette brevet. Den kan være rettet eller fjernet i en annen fane; last siden på nytt.",
        en: "The appointment is not in this letter. It may have been corrected or removed in another tab; reload the page.")

    static let badTitle = LibraryFailure(.badTitle,
        nb: "Tittelen kan ikke være tom.", en: "The title cannot be empty.")

    static func emptyQuery(_ reason: UserMessage?) -> LibraryFailure {
        if let reason { return .init(.emptyQuery, nb: reason.norwegian, en: reason.english) }
        return .init(.emptyQuery, nb: "Skriv minst ett ord å søke etter, for eksempel: arkivator search epikrise",
                     en: "Type at least one word to search for, for example: arkivator search epikrise")
    }

    static func targetExists(_ path: String) -> LibraryFailure {
        .init(.targetExists, nb: "\(path) finnes allerede. Velg et nytt navn; ingenting ble skrevet over.",
              en: "\(path) already exists. Choose a new name; nothing was overwritten.")
    }

    static func backupFolderMissing(_ folder: String) -> LibraryFailure {
        .init(.backupFolderMissing,
              nb: "Mappen \(folder) som kopien skulle skrives til, finnes ikke. Lag den først (mkdir -p \(folder)), eller velg en mappe som finnes; ingenting ble skrevet.",
              en: "The folder \(folder) the copy was to be written to does not exist. Make it first (mkdir -p \(folder)), or choose a folder that exists; nothing was written.")
    }

    static func backupFolderNotWritable(_ folder: String) -> LibraryFailure {
        .init(.backupFolderMissing,
              nb: "Du har ikke skrivetilgang til mappen \(folder) som kopien skulle skrives til. Velg en mappe du kan skrive i; ingenting ble skrevet.",
              en: "You may not write to the folder \(folder) the copy was to be written to. Choose a folder you can write to; nothing was written.")
    }

    static func fileMissing(_ path: String) -> LibraryFailure {
        .init(.fileMissing, nb: "Filen \(path) mangler i arkivet. Kjør arkivator reindex for å se hva som mangler.",
              en: "The file \(path) is missing from the archive. Run arkivator reindex to see what is missing.")
    }
}

extension LibraryFailure {
    static func noUploadJob(_ id: Int) -> LibraryFailure {
        .init(.noUploadJob, nb: "Fant ingen opplastingsjobb \(id). Se jobbene med: arkivator queue",
              en: "No upload job \(id). See the jobs with: arkivator queue")
    }

    static let closed = LibraryFailure(.closed,
        nb: "Biblioteket stenges (programmet avslutter). Prøv igjen når det er startet på nytt.",
        en: "The library is closing (the program is stopping). Try again once it has started again.")

    static func alreadyUploaded(_ id: Int, title: String) -> LibraryFailure {
        .init(.alreadyUploaded, nb: "Jobb \(id) («\(title)») er allerede lastet opp.",
              en: "Job \(id) (“\(title)”) is already uploaded.")
    }
}
