import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The WebDAV login: `ARKIVATOR_WEBDAV_USER` and `ARKIVATOR_WEBDAV_PASSWORD`, else the first line
/// of `<library>/webdav.secret` as `user:password` (a file only its owner may read: mode 0600).
/// Neither: no login.
public struct WebDAVCredentials: Sendable, Equatable {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    public static let fileName = "webdav.secret"

    public static func secretsFile(library: LibraryLocation) -> URL {
        library.directory.appendingPathComponent(fileName)
    }

    /// - Throws: ``UploadFailure`` `.credentials` for a secrets file others can read or that holds no `user:password`.
    public static func load(library: LibraryLocation, environment: [String: String]) throws(UploadFailure) -> WebDAVCredentials? {
        if let user = environment["ARKIVATOR_WEBDAV_USER"], !user.isEmpty {
            return WebDAVCredentials(user: user, password: environment["ARKIVATOR_WEBDAV_PASSWORD"] ?? "")
        }
        let path = secretsFile(library: library).path
        let line: String
        do {
            guard let found = try SecretFile.firstLine(path) else { return nil }
            line = found
        } catch .readableByOthers {
            throw UploadFailure(.credentials,
                nb: "\(path) kan leses av andre enn deg, så arkivator bruker den ikke. Gjør den privat med: chmod 600 \(path)",
                en: "\(path) can be read by others than you, so arkivator does not use it. Make it private with: chmod 600 \(path)")
        } catch {
            throw UploadFailure(.credentials, nb: "Kunne ikke lese \(path).", en: "Could not read \(path).")
        }
        guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
            throw UploadFailure(.credentials, nb: "\(path) skal inneholde én linje: bruker:passord",
                                en: "\(path) must hold one line: user:password")
        }
        return WebDAVCredentials(user: String(line[..<colon]), password: String(line[line.index(after: colon)...]))
    }

    /// The `Authorization` header value.
    var basicAuthorization: String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }
}
