import ArkivatorCore
internal import ArkivatorCrypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The library's secret: a 256-bit AES key that seals every fødselsnummer in the database.
///
/// Taken from `$ARKIVATOR_KEY` (32 bytes in base64, e.g. from `openssl rand -base64 32`) when
/// set, else from the file `<library>/library.key` (32 raw bytes, mode 0600), which is made
/// with fresh random bytes the first time a library needs it.
///
/// - Important: The key file must stay out of every backup, export or sync of the library
///   (``fileName`` is the name to skip). A copy of the database is only private while its key
///   travels separately: keep the key in a password manager or on a separate medium. Without
///   the key, stored fødselsnumre cannot be read again (names and birth dates still can).
public struct LibraryKey: Sendable, CustomStringConvertible {
    /// The key file's name inside the library folder. Backups and exports must leave it out.
    public static let fileName = "library.key"
    /// The environment variable that, when set, overrides the key file.
    public static let environmentVariable = "ARKIVATOR_KEY"
    /// The key length in bytes (AES-256).
    public static let byteCount = 32

    /// The raw key.
    private let raw: [UInt8]

    /// Seals `plain` with AES-GCM under this key, bound to `context` (authenticated, not
    /// encrypted: a sealed value opens only with the same context). Returns nonce, ciphertext and
    /// tag in one (`combined`); nil only if the cipher fails. The one place the library seals.
    func seal(_ plain: Data, context: Data) -> Data? {
        AESGCM.seal(Array(plain), key: raw, context: Array(context)).map { Data($0) }
    }

    /// Opens what ``seal(_:context:)`` made with the same key and context; nil when the key or
    /// context is another, or the bytes were changed.
    func unseal(_ sealed: Data, context: Data) -> Data? {
        AESGCM.open(Array(sealed), key: raw, context: Array(context)).map { Data($0) }
    }

    /// A key from 32 raw bytes.
    public init(bytes: some ContiguousBytes) throws(LibraryKeyError) {
        let raw = bytes.withUnsafeBytes { [UInt8]($0) }
        guard raw.count == Self.byteCount else { throw .wrongLength(raw.count, source: nil) }
        self.raw = raw
    }

    private init(raw: [UInt8]) { self.raw = raw }

    /// A fresh random key.
    public static func generate() -> LibraryKey { LibraryKey(raw: SecureRandom.bytes(byteCount)) }

    /// Never the key itself.
    public var description: String { "LibraryKey(•••)" }

    /// The key for a library: `$ARKIVATOR_KEY` if set, else `<library>/library.key`, created on
    /// first use. Refuses a key file of the wrong length, one that group or others may read or
    /// write, and one that is not a plain file. Never makes a new key while the database holds
    /// numbers sealed under another (`sealed` not empty): that refusal says what to do.
    public static func load(library: LibraryLocation,
                            environment: [String: String] = ProcessInfo.processInfo.environment,
                            sealed: () throws -> SealedInventory = { SealedInventory() }) throws -> LibraryKey {
        if let encoded = environment[environmentVariable]?.trimmingCharacters(in: .whitespacesAndNewlines), !encoded.isEmpty {
            guard let bytes = Data(base64Encoded: encoded) else { throw LibraryKeyError.notBase64 }
            guard bytes.count == byteCount else { throw LibraryKeyError.wrongLength(bytes.count, source: nil) }
            return LibraryKey(raw: Array(bytes))
        }
        try library.prepare()
        let path = library.directory.appendingPathComponent(fileName).path
        if let key = try readKeyFile(path) { return key }
        // Counted only now (a count reads every letter's row): no key, so is anything sealed?
        let inventory = try sealed()
        guard inventory.isEmpty else { throw LibraryKeyError.missing(path: path, sealed: inventory) }
        return try create(path)
    }

    /// The key in the file, or nil when there is no file.
    private static func readKeyFile(_ path: String) throws(LibraryKeyError) -> LibraryKey? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let error = errno
            if error == ENOENT { return nil }
            throw .unreadable(path: path, reason: String(cString: strerror(error)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notAFile(path: path) }
        guard info.st_mode & 0o077 == 0 else { throw .tooOpen(path: path, mode: Int(info.st_mode & 0o777)) }
        guard info.st_uid == getuid() else { throw .notOwned(path: path) }
        guard Int(info.st_size) == byteCount else { throw .wrongLength(Int(info.st_size), source: path) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: byteCount + 1)
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress?.advanced(by: filled), buffer.count - filled)
            }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            if got == 0 { break }
            filled += got
        }
        guard filled == byteCount else { throw .wrongLength(filled, source: path) }
        let key = LibraryKey(raw: Array(bytes.prefix(byteCount)))
        for index in bytes.indices { bytes[index] = 0 }
        return key
    }

    /// Writes a new random key: first to a private temporary file, then linked into place, so
    /// another process never sees a half-written key and two processes never make two keys.
    private static func create(_ path: String) throws -> LibraryKey {
        let key = generate()
        let temporary = path + ".new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw LibraryKeyError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        defer { unlink(temporary) }
        let written = key.raw.withUnsafeBytes { buffer in write(descriptor, buffer.baseAddress, buffer.count) }
        let synced = fsync(descriptor)
        let writeError = errno
        close(descriptor)
        guard written == byteCount, synced == 0 else {
            throw LibraryKeyError.cannotCreate(path: path, reason: String(cString: strerror(writeError)))
        }
        if link(temporary, path) != 0 {
            let error = errno
            // Another process made the key first: use that one.
            if error == EEXIST, let existing = try readKeyFile(path) { return existing }
            throw LibraryKeyError.cannotCreate(path: path, reason: String(cString: strerror(error)))
        }
        return key
    }
}

/// A library key that cannot be used, with what to do about it.
public struct LibraryKeyError: UserFacingError, Sendable, Equatable {
    public enum Code: String, Sendable {
        case notBase64, wrongLength, tooOpen, notOwned, notAFile, unreadable, cannotCreate, missing
    }

    public let code: Code
    public var errorCode: String { code.rawValue }
    public let userMessage: UserMessage

    static let notBase64 = LibraryKeyError(code: .notBase64, userMessage: UserMessage(
        nb: "ARKIVATOR_KEY er ikke gyldig base64. Sett den til 32 byte i base64 (for eksempel fra «openssl rand -base64 32»), eller fjern den for å bruke library.key.",
        en: "ARKIVATOR_KEY is not valid base64. Set it to 32 bytes in base64 (for example from 'openssl rand -base64 32'), or unset it to use library.key."))

    static func wrongLength(_ count: Int, source path: String?) -> LibraryKeyError {
        guard let path else {
            return LibraryKeyError(code: .wrongLength, userMessage: UserMessage(
                nb: "ARKIVATOR_KEY gir \(count) byte, men nøkkelen skal være 32 byte (44 tegn base64). Bruk samme nøkkel som før.",
                en: "ARKIVATOR_KEY gives \(count) bytes, but the key must be 32 bytes (44 base64 characters). Use the same key as before."))
        }
        return LibraryKeyError(code: .wrongLength, userMessage: UserMessage(
            nb: "Nøkkelfilen \(path) har \(count) byte, men skal ha 32. Legg tilbake riktig nøkkelfil fra der du oppbevarer den; uten den kan lagrede fødselsnumre ikke leses.",
            en: "The key file \(path) has \(count) bytes but should have 32. Put back the right key file from where you keep it; without it, stored fødselsnumre cannot be read."))
    }

    static func tooOpen(path: String, mode: Int) -> LibraryKeyError {
        LibraryKeyError(code: .tooOpen, userMessage: UserMessage(
            nb: "Nøkkelfilen \(path) kan leses av andre (rettigheter \(String(mode, radix: 8))). Kjør «chmod 600 \(path)» og prøv igjen.",
            en: "The key file \(path) can be read by others (mode \(String(mode, radix: 8))). Run 'chmod 600 \(path)' and try again."))
    }

    static func notOwned(path: String) -> LibraryKeyError {
        LibraryKeyError(code: .notOwned, userMessage: UserMessage(
            nb: "Nøkkelfilen \(path) eies av en annen bruker. Bruk et bibliotek som er ditt eget.",
            en: "The key file \(path) belongs to another user. Use a library of your own."))
    }

    static func notAFile(path: String) -> LibraryKeyError {
        LibraryKeyError(code: .notAFile, userMessage: UserMessage(
            nb: "\(path) er ikke en vanlig fil. Flytt den bort, så lages en ny nøkkel.",
            en: "\(path) is not a plain file. Move it away and a new key will be made."))
    }

    static func unreadable(path: String, reason: String) -> LibraryKeyError {
        LibraryKeyError(code: .unreadable, userMessage: UserMessage(
            nb: "Nøkkelfilen \(path) kunne ikke leses (\(reason)). Sjekk at den er din og at du har lesetilgang.",
            en: "The key file \(path) could not be read (\(reason)). Check that it is yours and that you may read it."))
    }

    /// No key, and the database holds numbers sealed under one (a restored or copied database).
    static func missing(path: String, sealed: SealedInventory) -> LibraryKeyError {
        let what = sealed.described
        return LibraryKeyError(code: .missing, userMessage: UserMessage(
            nb: "Nøkkelfilen \(path) mangler, men biblioteket har krypterte fødselsnumre (i \(what.norwegian)). De kan bare leses med den library.key som databasen ble laget med; en ny nøkkel kan aldri åpne dem, så ingen ny nøkkel ble laget. Legg den gamle nøkkelfilen tilbake der (chmod 600), eller sett ARKIVATOR_KEY, og prøv igjen. Er nøkkelen tapt for godt: flytt arkivator.sqlite bort og gjenopprett fra den med «arkivator restore FIL --without-key» (numrene blir da stående skjult som DDMMYY •••••).",
            en: "The key file \(path) is missing, but the library holds encrypted national ID numbers (in \(what.english)). They can only be read with the library.key the database was made with; a new key can never open them, so no new key was made. Put the old key file back there (chmod 600), or set ARKIVATOR_KEY, and try again. If the key is lost for good: move arkivator.sqlite away and restore from it with 'arkivator restore FILE --without-key' (the numbers then stay hidden as DDMMYY •••••)."))
    }

    static func cannotCreate(path: String, reason: String) -> LibraryKeyError {
        LibraryKeyError(code: .cannotCreate, userMessage: UserMessage(
            nb: "Kunne ikke lage nøkkelfilen \(path) (\(reason)). Sjekk at du har skrivetilgang til bibliotekmappen.",
            en: "Could not create the key file \(path) (\(reason)). Check that you may write to the library folder."))
    }
}
