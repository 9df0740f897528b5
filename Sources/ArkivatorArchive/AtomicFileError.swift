#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ArkivatorCore

/// Why a file could not be written, moved into place or a folder made, with a plain message.
///
/// Every system-call failure in this module becomes one of these in a single place,
/// ``AtomicFileError/init(errno:operation:path:)``, reached through `AtomicFile.syscall`.
public struct AtomicFileError: UserFacingError, Sendable, Equatable {
    /// What went wrong, for code that must react (``exists`` is the one to retry on).
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The target name is taken and `overwrite` was false.
        case exists
        /// No space left (or the user's disk quota is used up).
        case diskFull
        /// No permission to write in the folder (or to the file).
        case permissionDenied
        /// The disk is mounted read-only.
        case readOnly
        /// A folder on the way, or the temporary file, does not exist.
        case notFound
        /// Something on the way that should be a folder is a file.
        case notADirectory
        /// A name is longer than the file system allows.
        case nameTooLong
        /// The disk reported an input/output error.
        case io
        /// Any other failure; ``AtomicFileError/errorNumber`` says which.
        case other
    }

    public let kind: Kind
    /// The system call that failed (`open`, `write`, `fsync`, `link`, `rename`, `mkdir` …).
    public let operation: String
    /// The path it failed on.
    public let path: String
    /// The `errno` value.
    public let errorNumber: Int32

    /// The one mapping from `errno` to a kind.
    public init(errno number: Int32, operation: String, path: String) {
        self.operation = operation
        self.path = path
        self.errorNumber = number
        switch number {
        case EEXIST: kind = .exists
        case ENOSPC, EDQUOT: kind = .diskFull
        case EACCES, EPERM: kind = .permissionDenied
        case EROFS: kind = .readOnly
        case ENOENT: kind = .notFound
        case ENOTDIR: kind = .notADirectory
        case ENAMETOOLONG: kind = .nameTooLong
        case EIO: kind = .io
        default: kind = .other
        }
    }

    /// True for the `errno` values of a full disk (`ENOSPC`, or `EDQUOT`: the user's quota used up).
    public static func isDiskFull(errno number: Int32) -> Bool {
        AtomicFileError(errno: number, operation: "", path: "").kind == .diskFull
    }

    /// The error a Foundation call threw (`FileHandle.write`, `FileManager`), by the `errno`
    /// beneath it, so that a full disk is told as a full disk; `EIO` when it names none.
    public init(_ error: any Error, operation: String, path: String) {
        self.init(errno: Self.errorNumber(of: error) ?? EIO, operation: operation, path: path)
    }

    /// The `errno` a thrown error carries: its own (`POSIXError`, an `NSPOSIXErrorDomain` error)
    /// or that of the error beneath it (Foundation's `CocoaError`s name it so).
    static func errorNumber(of error: any Error) -> Int32? {
        if let error = error as? AtomicFileError { return error.errorNumber }
        if let error = error as? POSIXError { return error.code.rawValue }
        let bridged = error as NSError
        if bridged.domain == NSPOSIXErrorDomain { return Int32(bridged.code) }
        if let underlying = bridged.userInfo[NSUnderlyingErrorKey] as? any Error { return errorNumber(of: underlying) }
        guard bridged.domain == NSCocoaErrorDomain else { return nil }
        switch CocoaError.Code(rawValue: bridged.code) {
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileWriteNoPermission: return EACCES
        default: return nil
        }
    }

    /// A short machine-readable code, stable across languages.
    public var errorCode: String { kind.rawValue }

    /// The system's own wording for the error (English).
    public var systemText: String { String(cString: strerror(errorNumber)) }

    /// What happened and what to do, in the user's language.
    public var userMessage: UserMessage {
        // Never a hidden temporary name: the file it was to become, or the folder it was written in.
        let temporary = AtomicFile.isTemporaryName(URL(fileURLWithPath: path).lastPathComponent)
        let folder = ShownName.of(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        let path = temporary ? folder : ShownName.of(self.path)
        let shown = temporary ? UserMessage(nb: "en fil i \(folder)", en: "a file in \(folder)") : UserMessage(nb: path, en: path)
        return switch kind {
        case .exists:
            UserMessage(nb: "Filen \(path) finnes allerede og ble ikke overskrevet.",
                        en: "The file \(path) already exists and was not overwritten.")
        case .diskFull:
            UserMessage(nb: "Disken er full, så \(shown.norwegian) kunne ikke lagres. Frigjør plass på disken der \(folder) ligger "
                            + "(flytt eller slett store filer), og prøv igjen. Originalen er ikke rørt.",
                        en: "The disk is full, so \(shown.english) could not be saved. Free some space on the disk holding \(folder) "
                            + "(move or delete large files) and try again. The original is untouched.")
        case .permissionDenied:
            UserMessage(nb: "Mangler skrivetilgang til \(path). Sjekk at du har lov til å skrive i arkivmappen.",
                        en: "No permission to write \(path). Check that you may write in the archive folder.")
        case .readOnly:
            UserMessage(nb: "Disken med \(path) er skrivebeskyttet. Velg en annen arkivmappe eller fjern skrivebeskyttelsen.",
                        en: "The disk holding \(path) is read-only. Choose another archive folder or make the disk writable.")
        case .notFound:
            UserMessage(nb: "Fant ikke \(path). Sjekk at arkivmappen finnes og prøv igjen.",
                        en: "\(path) was not found. Check that the archive folder exists and try again.")
        case .notADirectory:
            UserMessage(nb: "En del av stien \(path) er en fil, ikke en mappe. Flytt eller gi nytt navn til filen.",
                        en: "Part of the path \(path) is a file, not a folder. Move or rename that file.")
        case .nameTooLong:
            UserMessage(nb: "Navnet \(path) er for langt for disken. Velg en kortere arkivsti.",
                        en: "The name \(path) is too long for the disk. Choose a shorter archive path.")
        case .io:
            UserMessage(nb: "Disken svarte ikke som den skulle da \(path) ble skrevet. Sjekk disken og prøv igjen.",
                        en: "The disk did not respond as it should while writing \(path). Check the disk and try again.")
        case .other:
            UserMessage(nb: "Kunne ikke skrive \(path) (\(operation): \(systemText)). Prøv igjen; meld fra om feilen hvis den kommer tilbake.",
                        en: "Could not write \(path) (\(operation): \(systemText)). Try again; report the problem if it comes back.")
        }
    }

}
