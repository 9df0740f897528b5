import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `<library>/uploads.lock`: an exclusive `flock` while a pass runs.
enum UploadLock {
    case held(Int32)
    /// Another process (or worker) is in a pass.
    case busy
    /// The lock file cannot be opened or locked (then stale `uploading` jobs go by age).
    case unavailable

    static func take(_ directory: URL) -> UploadLock {
        let descriptor = Posix.open(directory.appendingPathComponent("uploads.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return .unavailable }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return .held(descriptor) }
        let busy = errno == EWOULDBLOCK
        Posix.close(descriptor)
        return busy ? .busy : .unavailable
    }

    func release() {
        if case .held(let descriptor) = self {
            _ = flock(descriptor, LOCK_UN)
            Posix.close(descriptor)
        }
    }
}
