import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// Where filed documents are copied: the value of the `destination` setting.
///
/// - `folder:PATH`: a folder (another disk, a synced folder); `~` and relative paths are made absolute.
/// - `webdav:URL`: an `http`/`https` WebDAV folder (Nextcloud, ownCloud, a NAS, `rclone serve webdav`);
///   the login comes from `ARKIVATOR_WEBDAV_USER`/`ARKIVATOR_WEBDAV_PASSWORD` or `<library>/webdav.secret`.
/// - `rclone:REMOTE:PATH`: anything rclone reaches, as rclone names it (`minsky:Arkiv`,
///   `:webdav,url='https://…':Arkiv`, `:local:/mnt/kopi`).
///
/// Every file keeps its place below the archive root: `Person/Dokumenter/Title.docx`.
public enum Destination: Sendable, Equatable, CustomStringConvertible {
    case folder(String)
    case webdav(URL)
    case rclone(String)

    /// Reads a setting value.
    /// - Parameter currentDirectory: what a relative `folder:` path is relative to.
    /// - Throws: ``UploadFailure`` `.badDestination` with a plain message.
    public static func parse(_ text: String, currentDirectory: String = FileManager.default.currentDirectoryPath,
                             home: String = NSHomeDirectory()) throws(UploadFailure) -> Destination {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let colon = value.firstIndex(of: ":") else { throw .badDestination(value) }
        let scheme = value[..<colon].lowercased()
        let rest = String(value[value.index(after: colon)...])
        guard !rest.isEmpty, !rest.contains("\0"), !rest.contains("\n") else { throw .badDestination(value) }
        switch scheme {
        case "folder":
            var path = rest
            if path == "~" || path.hasPrefix("~/") { path = home + path.dropFirst() }
            if !path.hasPrefix("/") { path = currentDirectory + "/" + path }
            path = URL(fileURLWithPath: path).standardizedFileURL.path
            guard path != "/" else { throw .badDestination(value) }
            return .folder(path)
        case "webdav":
            guard let url = URL(string: rest), let urlScheme = url.scheme?.lowercased(), urlScheme == "http" || urlScheme == "https",
                  let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil else {
                throw .badDestination(value)
            }
            guard url.user == nil, url.password == nil else { throw .credentialsInURL(value) }
            return .webdav(url)
        case "rclone":
            guard Self.isRcloneTarget(rest) else { throw .badDestination(value) }
            return .rclone(rest)
        default:
            throw .badDestination(value)
        }
    }

    /// `REMOTE:PATH` with a configured remote name, or `:backend…:PATH` (an on-the-fly remote).
    static func isRcloneTarget(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        if colon == text.startIndex {
            // ":backend,option=value…:path": the backend name, then the rest for rclone to read.
            let backend = text.dropFirst().prefix { $0.isLetter || $0.isNumber }
            return !backend.isEmpty && text.dropFirst(1 + backend.count).first.map { $0 == ":" || $0 == "," } == true
        }
        let name = text[..<colon]
        return name.first.map { $0 != "-" && $0 != " " } == true
            && name.allSatisfy { $0.isLetter || $0.isNumber || "_-. @+".contains($0) }
    }

    /// The setting value, with a folder made absolute.
    public var description: String {
        switch self {
        case .folder(let path): "folder:" + path
        case .webdav(let url): "webdav:" + url.absoluteString
        case .rclone(let target): "rclone:" + target
        }
    }

    /// A short name for messages: the folder, the server or the rclone target.
    public var displayName: String {
        switch self {
        case .folder(let path): path
        case .webdav(let url): url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } ?? url.absoluteString
        case .rclone(let target): target
        }
    }

    /// Opens the destination for uploads (loads the WebDAV login; see ``WebDAVCredentials``).
    /// - Throws: ``UploadFailure`` (`.credentials` for a secrets file that cannot be used).
    public func open(library: LibraryLocation, environment: [String: String]) throws(UploadFailure) -> any UploadDestination {
        switch self {
        case .folder(let path):
            return FolderDestination(root: URL(fileURLWithPath: path, isDirectory: true))
        case .webdav(let url):
            let credentials = try WebDAVCredentials.load(library: library, environment: environment)
            return WebDAVDestination(base: url, credentials: credentials)
        case .rclone(let target):
            return RcloneDestination(target: target, environment: environment)
        }
    }

    /// What `config set destination` tells the person about this destination.
    public func setupNote(library: LibraryLocation) -> UserMessage? {
        switch self {
        case .folder(let path):
            guard !FileManager.default.fileExists(atPath: path) else { return nil }
            return UserMessage(nb: "Merk: \(path) finnes ikke ennå. Arkivator lager ikke selve mappen (er disken koblet til?).",
                               en: "Note: \(path) does not exist yet. Arkivator does not create the folder itself (is the disk connected?).")
        case .webdav:
            let secret = WebDAVCredentials.secretsFile(library: library).path
            return UserMessage(
                nb: "Innlogging: sett ARKIVATOR_WEBDAV_USER og ARKIVATOR_WEBDAV_PASSWORD, eller skriv bruker:passord i \(secret) (chmod 600 \(secret)).",
                en: "Login: set ARKIVATOR_WEBDAV_USER and ARKIVATOR_WEBDAV_PASSWORD, or write user:password into \(secret) (chmod 600 \(secret)).")
        case .rclone:
            return UserMessage(nb: "Fjernlageret settes opp med rclone config; arkivator kjører rclone copyto, moveto og deletefile.",
                               en: "Set the remote up with rclone config; arkivator runs rclone copyto, moveto and deletefile.")
        }
    }
}

/// Somewhere files can be copied to.
public protocol UploadDestination: Sendable {
    /// Copies one file to `file.relativePath` below the destination (creating folders), or leaves
    /// it when the destination already holds the same bytes.
    /// - Throws: ``UploadFailure``; anything else counts as a passing error.
    func upload(_ file: UploadFile) async throws -> UploadResult

    /// Moves a file Arkivator put there to another place below the destination (replacing what
    /// is there). Returns false, moving nothing, when there is no file at `from`.
    func move(from: String, to: String) async throws -> Bool

    /// Removes a file Arkivator put there (and the folders it leaves empty); a file already gone is fine.
    func remove(_ path: String) async throws

    /// Every file below the destination, with its size and, where the destination can say, its SHA-256.
    func list() async throws -> [ListedFile]

    /// Does a letter's steps in order, stopping at the first that fails; returns what became of
    /// each step done, and what stopped it. (The default does them one by one with the methods
    /// above; a destination may do them together.)
    func perform(_ steps: [MirrorStep]) async -> (done: [MirrorStepResult], stopped: (any Error)?)

    /// Does several letters' steps (each as ``perform(_:)``); returns each letter's outcome, in
    /// order. The default does the letters one after the other; after a failure that would hit
    /// every letter the same way (``UploadFailure/blocksDestination``), the rest get that failure
    /// without being tried, and once cancelled, a `CancellationError`. A destination may do them
    /// side by side.
    func perform(letters: [[MirrorStep]]) async -> [(done: [MirrorStepResult], stopped: (any Error)?)]

    /// Whether what is written there reaches its disk later, after the copy is recorded (a
    /// folder on this machine, as `cp` leaves it; see ``UnsettledCopies``). False by default: a
    /// server answers once it holds the file.
    var writesReachDiskLater: Bool { get }

    /// Lets go of connections (call once, after the last upload).
    func close() async
}

/// One change to a letter's copy at a destination.
public enum MirrorStep: Sendable, Equatable {
    /// Move the file Arkivator put at `from` to the file's place; when nothing is at `from`
    /// (a crash already moved it), copy the file there instead.
    case move(from: String, file: UploadFile)
    /// Copy the file to its place (left alone when the same bytes are there).
    case upload(UploadFile)
    /// Remove the file Arkivator put there.
    case remove(String)
}

/// What became of one ``MirrorStep``.
public enum MirrorStepResult: Sendable, Equatable {
    case moved
    case uploaded(UploadResult)
    case removed
}

extension UploadDestination {
    public var writesReachDiskLater: Bool { false }

    public func perform(letters: [[MirrorStep]]) async -> [(done: [MirrorStepResult], stopped: (any Error)?)] {
        var outcomes: [(done: [MirrorStepResult], stopped: (any Error)?)] = []
        var blocking: (any Error)?
        for steps in letters {
            if let blocking {
                outcomes.append(([], blocking))
            } else if Task.isCancelled {
                outcomes.append(([], CancellationError()))
            } else {
                let outcome = await perform(steps)
                if let failure = outcome.stopped as? UploadFailure, failure.blocksDestination { blocking = failure }
                outcomes.append(outcome)
            }
        }
        return outcomes
    }

    public func perform(_ steps: [MirrorStep]) async -> (done: [MirrorStepResult], stopped: (any Error)?) {
        var done: [MirrorStepResult] = []
        do {
            for step in steps {
                try Task.checkCancellation()
                switch step {
                case .move(let from, let file):
                    if try await move(from: from, to: file.relativePath) {
                        done.append(.moved)
                    } else {
                        done.append(.uploaded(try await upload(file)))
                    }
                case .upload(let file):
                    done.append(.uploaded(try await upload(file)))
                case .remove(let path):
                    try await remove(path)
                    done.append(.removed)
                }
            }
            return (done, nil)
        } catch {
            return (done, error)
        }
    }
}

/// A file found at a destination.
public struct ListedFile: Sendable, Equatable {
    /// Below the destination, `/`-separated.
    public var path: String
    public var size: Int
    /// Lower-case hex; nil when the destination does not say.
    public var sha256: String?

    public init(path: String, size: Int, sha256: String?) {
        self.path = path
        self.size = size
        self.sha256 = sha256
    }
}

/// What became of one file.
public enum UploadResult: String, Sendable, Codable {
    /// Copied.
    case uploaded
    /// The destination already had the same file.
    case unchanged
}

/// Checks a path below the destination: relative, no empty, `.` or `..` parts.
func relativeComponents(_ path: String) throws(UploadFailure) -> [String] {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard !path.hasPrefix("/"), !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") }) else {
        throw .badRelativePath(path)
    }
    return parts
}
