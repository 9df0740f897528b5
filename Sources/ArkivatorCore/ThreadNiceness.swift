import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Linux gives each thread its own nice value: background work can step back for the work a
/// person waits for, on the calling thread only.
public enum ThreadNiceness {
    /// Sets the calling thread's nice value (0 leaves it alone); false when the system refused.
    @discardableResult
    public static func set(_ niceness: Int32) -> Bool {
        guard niceness != 0, let thread = threadID() else { return niceness == 0 }
        #if canImport(Glibc)
        return setpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread, niceness) == 0
        #else
        return false
        #endif
    }

    /// The calling thread's kernel id (`/proc/thread-self` links to `PID/task/TID`).
    static func threadID() -> id_t? {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let link = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return link.split(separator: "/").last.flatMap { id_t($0) }
    }
}
