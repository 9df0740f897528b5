import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file in the library that holds a secret on its first line (`webdav.secret`, `llm.key`).
/// It is used only when its owner alone may read it (mode 0600 or stricter).
public enum SecretFile {
    public enum Problem: Error, Equatable {
        /// Others than the owner may read it.
        case readableByOthers(String)
        case unreadable(String)
    }

    /// The first line as written (empty for an empty file); nil when the file is not there.
    public static func firstLine(_ path: String) throws(Problem) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard info.st_mode & 0o077 == 0 else { throw .readableByOthers(path) }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path) }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    }
}
