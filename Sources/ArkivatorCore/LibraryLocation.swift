import Foundation

/// Where a library lives: the folder that holds the configuration, the database and,
/// unless configured elsewhere, the archive.
public struct LibraryLocation: Sendable, Equatable {
    /// The library folder.
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// The library chosen by `--library`, else `$ARKIVATOR_LIBRARY`, else
    /// `$XDG_DATA_HOME/arkivator`, else `~/.local/share/arkivator`.
    public static func resolve(explicit: String?, environment: [String: String]) -> LibraryLocation {
        if let explicit, !explicit.isEmpty {
            return LibraryLocation(directory: URL(fileURLWithPath: explicit))
        }
        if let fromEnv = environment["ARKIVATOR_LIBRARY"], !fromEnv.isEmpty {
            return LibraryLocation(directory: URL(fileURLWithPath: fromEnv))
        }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return LibraryLocation(directory: URL(fileURLWithPath: xdg).appendingPathComponent("arkivator"))
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return LibraryLocation(
            directory: URL(fileURLWithPath: home).appendingPathComponent(".local/share/arkivator"))
    }

    /// Creates the folder (and missing parents) if needed; the library folder itself is
    /// readable by its owner only (mode 0700).
    public func prepare() throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw LibraryError(message: UserMessage(
                    nb: "Biblioteket \(directory.path) er en fil, ikke en mappe. Velg en annen plass med --library.",
                    en: "The library \(directory.path) is a file, not a folder. Choose another place with --library."))
            }
            return
        }
        do {
            try fm.createDirectory(at: directory, withIntermediateDirectories: true,
                                   attributes: [.posixPermissions: 0o700])
        } catch {
            throw LibraryError(message: UserMessage(
                nb: "Kunne ikke opprette biblioteket \(directory.path): \(error.localizedDescription)",
                en: "Could not create the library \(directory.path): \(error.localizedDescription)"))
        }
    }
}

/// A library folder that cannot be used.
public struct LibraryError: UserFacingError, Sendable {
    public let message: UserMessage
    public var userMessage: UserMessage { message }
    public var errorCode: String { "libraryFolder" }

    public init(message: UserMessage) {
        self.message = message
    }
}
