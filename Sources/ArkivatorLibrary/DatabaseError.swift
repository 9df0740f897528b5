internal import CSQLite
import ArkivatorArchive
import ArkivatorCore

/// Why SQLite refused something: the one error type of ``Database`` and ``Statement``.
///
/// Built only by ``check(_:connection:sql:)`` from a SQLite result code, so every failure
/// carries the primary and extended result codes, SQLite's own message and the statement.
/// Values are always bound, never spliced into SQL, so `sql` never holds user data.
public struct DatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT` …).
    public let resultCode: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` …), or the primary one.
    public let extendedResultCode: Int32
    /// SQLite's message, in English.
    public let message: String
    /// The statement that failed, if any.
    public let sql: String?
    /// The `errno` of the system call under an I/O failure (`sqlite3_system_errno`), or 0.
    public var systemErrorNumber: Int32 = 0

    /// Throws a ``DatabaseError`` unless `code` says success (`SQLITE_OK`, `SQLITE_ROW`,
    /// `SQLITE_DONE`). The message comes from the connection when there is one.
    static func check(_ code: Int32, connection: OpaquePointer?, sql: String? = nil) throws(DatabaseError) {
        switch code {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE: return
        default: throw failure(code, connection: connection, sql: sql)
        }
    }

    /// The error for a failed result code: the one place a ``DatabaseError`` is made.
    /// `message` replaces the connection's message where SQLite itself has not failed
    /// (a misuse found before calling it).
    static func failure(_ code: Int32, connection: OpaquePointer?, sql: String?, message: String? = nil) -> DatabaseError {
        var extended = code
        var text = String(cString: sqlite3_errstr(code))
        var system: Int32 = 0
        if let connection, message == nil {
            let last = sqlite3_extended_errcode(connection)
            if last & 0xFF == code & 0xFF { extended = last }
            text = String(cString: sqlite3_errmsg(connection))
            system = sqlite3_system_errno(connection)
        }
        if let message { text = message }
        return DatabaseError(resultCode: code & 0xFF, extendedResultCode: extended, message: text, sql: sql, systemErrorNumber: system)
    }

    /// True when a `UNIQUE` or `PRIMARY KEY` constraint refused a row.
    public var isUniqueConstraintViolation: Bool {
        // SQLITE_CONSTRAINT_UNIQUE and _PRIMARYKEY: macros with shifts that Swift does not import.
        extendedResultCode == SQLITE_CONSTRAINT | (8 << 8) || extendedResultCode == SQLITE_CONSTRAINT | (6 << 8)
    }

    /// True when the disk (or the user's quota) is full: SQLite's own `SQLITE_FULL`, or an I/O
    /// failure whose system call found no room (as the archive's writes tell it).
    public var isDiskFull: Bool {
        resultCode == SQLITE_FULL || (resultCode == SQLITE_IOERR && AtomicFileError.isDiskFull(errno: systemErrorNumber))
    }

    /// True when another connection held a lock longer than the busy timeout.
    public var isBusy: Bool { resultCode == SQLITE_BUSY || resultCode == SQLITE_LOCKED }

    public var description: String {
        var text = "SQLite error \(resultCode)"
        if extendedResultCode != resultCode { text += "/\(extendedResultCode)" }
        text += ": \(message)"
        if let sql { text += " — in: \(sql)" }
        return text
    }
}

extension DatabaseError: UserFacingError {
    public var errorCode: String {
        switch resultCode {
        case SQLITE_BUSY, SQLITE_LOCKED: "libraryBusy"
        case SQLITE_CORRUPT, SQLITE_NOTADB: "libraryDamaged"
        case _ where isDiskFull: "diskFull"
        default: "database"
        }
    }

    /// What happened to the library database and what to do, in plain words.
    public var userMessage: UserMessage {
        let hint: UserMessage
        switch resultCode {
        case _ where isDiskFull:
            hint = UserMessage(nb: "Disken er full. Frigjør plass på disken der biblioteket ligger (flytt eller slett store filer), og prøv igjen.",
                               en: "The disk is full. Free some space on the disk holding the library (move or delete large files) and try again.")
        case SQLITE_BUSY, SQLITE_LOCKED:
            hint = UserMessage(
                nb: "Et annet arkivator-program bruker biblioteket nå. Vent litt og prøv igjen.",
                en: "Another arkivator program is using the library. Wait a little and try again.")
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            hint = UserMessage(
                nb: "Databasefilen er skadet eller ikke en arkivator-database. Legg tilbake en sikkerhetskopi: arkivator restore --backup FIL --replace",
                en: "The database file is damaged or not an arkivator database. Restore a backup: arkivator restore --backup FILE --replace")
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY, SQLITE_AUTH:
            hint = UserMessage(
                nb: "Sjekk at bibliotekmappen finnes og at du har skrivetilgang til den.",
                en: "Check that the library folder exists and that you may write to it.")
        case SQLITE_IOERR:
            hint = UserMessage(nb: "Disken svarte ikke som den skulle. Sjekk disken og prøv igjen.",
                               en: "The disk did not respond as it should. Check the disk and try again.")
        default:
            hint = UserMessage(nb: "Prøv igjen; meld fra om feilen hvis den kommer tilbake.",
                               en: "Try again; report the problem if it comes back.")
        }
        return UserMessage(
            nb: "Biblioteksdatabasen svarte med en feil (SQLite: \(message)). " + hint.norwegian,
            en: "The library database reported an error (SQLite: \(message)). " + hint.english)
    }
}
