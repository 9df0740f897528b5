import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorLLM
import ArkivatorSync
import ArkivatorPipeline
import Foundation

/// The one assembly that `ingest`, `watch` and `serve` share: the library, opened once; the
/// household (family profiles, from the library or a file); the settings, typed and checked
/// (``settings()``, ``change(_:to:for:)``); the pipeline factory (rules, and the language model
/// when it is on); and the upload queue with its worker (``uploads``). A command only chooses what
/// to run.
///
/// One door to the library for async callers: ``store`` (its readers and its one writer), which
/// the web app, the upload worker, the settings and the explanations all go through. The
/// pipeline's worker threads, which may block, use ``library`` itself.
///
/// Thread-safe: the library serialises its own connection, `store` and the kept engines
/// (`PageReaders`) lend their threads and engines one caller at a time, and everything else here
/// is a value or made afresh per call.
public final class Household: Sendable {
    /// Where the household's members come from.
    public enum Members: Sendable, Equatable {
        /// The library's family profiles (`arkivator family`, the web app's family page).
        case library
        /// A JSON file given on the command line (see ``Household/profiles(fromFile:)``).
        case file(URL)
    }

    /// The library, opened once for everything this assembly does. The web app is given this.
    public let library: Library
    /// The library's async door (see the type's notes); ``close()`` shuts it.
    public let store: AsyncLibrary
    public let members: Members
    /// For the language model's key, the WebDAV login and rclone's variables.
    public let environment: [String: String]
    /// The upload queue: its worker, its background loop (`serve`), its state in plain words.
    public let uploads: Uploads
    /// Tesseract engines kept for pages read again, redactions and share packs.
    let readers = PageReaders()

    /// Where the library lives.
    public var location: LibraryLocation { library.location }

    /// The folder the web app hands uploaded letters to: `<library>/Innboks`, watched by `serve`
    /// as `watch` watches a folder.
    public var inbox: URL {
        location.folder(.inbox).standardizedFileURL
    }

    /// Makes the library folder (readable by its owner only) and opens the library in it, once.
    /// - Parameters:
    ///   - notify: the command run when an upload gives up (`watch --notify`); nil uses the `notify` setting.
    ///   - uploadPolicy: the queue's waits and tries.
    public static func open(_ location: LibraryLocation, members: Members = .library,
                            environment: [String: String] = ProcessInfo.processInfo.environment,
                            notify: String? = nil, uploadPolicy: UploadPolicy = UploadPolicy()) throws -> Household {
        try location.prepare()
        let library = try Library.open(location, environment: environment)
        return Household(library: library, members: members, environment: environment, notify: notify,
                         uploadPolicy: uploadPolicy)
    }

    /// An assembly over a library already open.
    public init(library: Library, members: Members = .library,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                notify: String? = nil, uploadPolicy: UploadPolicy = UploadPolicy(), uploadIdleCheck: TimeInterval = 60) {
        self.library = library
        store = AsyncLibrary(library)
        self.members = members
        self.environment = environment
        uploads = Uploads(worker: UploadWorker(store: store, notify: notify, policy: uploadPolicy, environment: environment),
                          idleCheck: uploadIdleCheck)
    }

    /// Lets the work already asked of ``store`` finish and stops its threads. Call it last,
    /// after the web app and the uploads have stopped; a call to `store` afterwards throws
    /// `LibraryFailure.closed`.
    public func close() async {
        await store.shutdown()
    }

    // MARK: - The household

    /// The household's members as the classifier sees them, read now (a change made meanwhile,
    /// on the command line or in the web app, is seen).
    public func family() throws -> [FamilyProfile] {
        switch members {
        case .library: try library.familyProfiles()
        case .file(let url): try Self.profiles(fromFile: url)
        }
    }

    /// Reads `{"members": [{"name", "birthDate"?, "personnummer"?}]}`.
    /// - Throws: a plain error when the file cannot be read, is not such JSON, or holds a
    ///   fødselsnummer that is not valid.
    public static func profiles(fromFile url: URL) throws -> [FamilyProfile] {
        struct File: Decodable {
            struct Member: Decodable { var name: String; var birthDate: String?; var personnummer: String? }
            var members: [Member]
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SettingRefused(code: "familyFile", message: UserMessage(
                nb: "Kunne ikke lese husstandsfilen \(url.path). Sjekk navnet.",
                en: "Could not read the household file \(url.path). Check the name."))
        }
        guard let file = try? JSONDecoder().decode(File.self, from: data) else {
            throw SettingRefused(code: "familyFile", message: UserMessage(
                nb: "\(url.path) er ikke en husstandsfil: den skal være JSON med {\"members\": [{\"name\": …}]}.",
                en: "\(url.path) is not a household file: it must be JSON with {\"members\": [{\"name\": …}]}."))
        }
        return try file.members.map { member in
            let number = try member.personnummer.map { try Fodselsnummer($0) }
            return FamilyProfile(name: member.name, birthDate: member.birthDate, fodselsnummer: number)
        }
    }
}
