internal import CZip
import ArkivatorCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why libzip refused something: the one error type of ``ZipWriter``.
///
/// Built only by ``check(_:_:operation:archive:)`` from a libzip error (`zip_error_t`), so every
/// failure carries libzip's error code, the `errno` behind it where there is one, libzip's own
/// message (`zip_error_strerror`), what was being done and which archive.
public struct ZipError: UserFacingError, Sendable, Equatable {
    /// libzip's error code (`ZIP_ER_*`: 11 can't open file, 12 can't create the temporary file,
    /// 14 out of memory, 18 invalid argument …).
    public let code: Int32
    /// The `errno` behind the failure, for errors that carry one (writing, renaming, opening), else 0.
    public let systemError: Int32
    /// libzip's message, in English (`zip_error_strerror`).
    public let message: String
    /// What was being done: `open`, `add word/document.xml`, `close` …
    public let operation: String
    /// The archive's path; nil for an archive built in memory.
    public let archive: String?

    /// Where libzip keeps the error to report.
    enum Origin {
        /// The error of an archive handle (`zip_get_error`).
        case archive(OpaquePointer)
        /// The error of a source (`zip_source_error`).
        case source(OpaquePointer)
        /// A bare libzip error code (from `zip_open`, or a misuse found before calling libzip).
        case code(Int32)
    }

    /// Throws a ``ZipError`` built from `origin` unless `succeeded`: the one place a ``ZipError`` is made.
    static func check(_ succeeded: Bool, _ origin: Origin, operation: String, archive: String?) throws(ZipError) {
        if succeeded { return }
        let savedErrno = errno
        func make(_ error: UnsafeMutablePointer<zip_error_t>) -> ZipError {
            let system = zip_error_system_type(error) == ZIP_ET_SYS ? zip_error_code_system(error) : 0
            return ZipError(code: zip_error_code_zip(error), systemError: system,
                            message: String(cString: zip_error_strerror(error)),
                            operation: operation, archive: archive)
        }
        switch origin {
        case .archive(let handle):
            throw make(zip_get_error(handle))
        case .source(let source):
            throw make(zip_source_error(source))
        case .code(let code):
            var error = zip_error_t()
            errno = savedErrno  // zip_error_init_with_code reads errno for system errors
            zip_error_init_with_code(&error, code)
            defer { zip_error_fini(&error) }
            throw make(&error)
        }
    }

    /// Unwraps `value`, or throws the ``ZipError`` of `origin` when it is nil.
    static func check<T>(_ value: T?, _ origin: Origin, operation: String, archive: String?) throws(ZipError) -> T {
        try check(value != nil, origin, operation: operation, archive: archive)
        guard let value else {
            // Not reached: `check` has thrown for nil. Kept for the type checker, without `!`.
            throw ZipError(code: ZIP_ER_INTERNAL, systemError: 0, message: "Internal error",
                           operation: operation, archive: archive)
        }
        return value
    }

    public var errorCode: String { isDiskFull ? "diskFull" : "zip" }

    /// True when the disk (or the user's quota) is full.
    public var isDiskFull: Bool { AtomicFileError.isDiskFull(errno: systemError) }

    public var description: String {
        var text = "libzip error \(code)"
        if systemError != 0 { text += "/errno \(systemError)" }
        text += " during \(operation): \(message)"
        if let archive { text += " — archive: \(archive)" }
        return text
    }

    /// What went wrong writing a document file and what to do, in plain words.
    public var userMessage: UserMessage {
        // A hidden temporary name is shown as the folder it was written in.
        let place = archive.map { path in
            let cut = path.lastIndex(of: "/")
            let name = cut.map { String(path[path.index(after: $0)...]) } ?? path
            return AtomicFile.isTemporaryName(name) ? " (\(ShownName.of(cut.map { String(path[..<$0]) } ?? ".")))"
                                                    : " \(ShownName.of(path))"
        } ?? ""
        let hint: UserMessage
        switch systemError {
        case _ where isDiskFull:
            hint = UserMessage(nb: "Disken er full. Frigjør plass på disken med arkivet (flytt eller slett store filer), og prøv igjen. Originalen er ikke rørt.",
                               en: "The disk is full. Free some space on the archive's disk (move or delete large files) and try again. The original is untouched.")
        case EACCES, EPERM, EROFS:
            hint = UserMessage(nb: "Sjekk at du har skrivetilgang til arkivmappen.",
                               en: "Check that you may write to the archive folder.")
        case ENOENT, ENOTDIR:
            hint = UserMessage(nb: "Arkivmappen finnes ikke lenger. Sjekk at disken er koblet til.",
                               en: "The archive folder no longer exists. Check that the disk is connected.")
        default:
            hint = UserMessage(nb: "Prøv igjen; meld fra om feilen hvis den kommer tilbake.",
                               en: "Try again; report the problem if it comes back.")
        }
        return UserMessage(
            nb: "Dokumentfilen\(place) kunne ikke skrives (libzip: \(message)). " + hint.norwegian,
            en: "The document file\(place) could not be written (libzip: \(message)). " + hint.english)
    }
}
