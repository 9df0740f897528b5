import ArkivatorCore
import ArkivatorLibrary
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Destination {
    /// Whether files can be uploaded there now, checked the way an upload would go, within about
    /// `timeout` seconds:
    ///
    /// - a folder must exist and take a file (one is written and removed again);
    /// - a WebDAV folder must answer a `PROPFIND` with the login arkivator would use (401/403: the
    ///   login is refused; connection refused or a time-out: the server cannot be reached; 404:
    ///   the folder is not on the server);
    /// - for rclone, the program must be there and list the remote (a folder that is not there
    ///   yet is fine: rclone makes it).
    ///
    /// - Throws: ``UploadFailure``, its ``UploadFailure/reason`` saying what is wrong.
    public func check(library: LibraryLocation, environment: [String: String],
                      timeout: TimeInterval = 10) async throws(UploadFailure) {
        switch self {
        case .folder(let path):
            do {
                try await FileWork.run { try FolderDestination.checkWritable(URL(fileURLWithPath: path, isDirectory: true)) }
            } catch let failure as UploadFailure {
                throw failure
            } catch {
                throw UploadFailure(.transient, nb: UserMessage(error: error).norwegian, en: UserMessage(error: error).english)
            }
        case .webdav(let url):
            let credentials = try WebDAVCredentials.load(library: library, environment: environment)
            try await WebDAVDestination(base: url, credentials: credentials).checkFolder(timeout: timeout)
        case .rclone(let target):
            try await RcloneDestination(target: target, environment: environment, timeout: timeout).checkRemote()
        }
    }
}

extension FolderDestination {
    /// The folder exists and a file can be written in it (and removed again).
    /// - Throws: ``UploadFailure``: the folder missing, no permission, a full or read-only disk.
    static func checkWritable(_ root: URL) throws(UploadFailure) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .folderMissing(root.path)
        }
        let probe = root.path + "/.arkivator-\(UUID().uuidString).tmp"
        let descriptor = Posix.open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(errno, path: root.path) }
        defer {
            Posix.close(descriptor)
            unlink(probe)
        }
        let written = write(descriptor, "arkivator", 9)
        guard written == 9 else { throw failure(written < 0 ? errno : ENOSPC, path: root.path) }
    }
}
