#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A path with every symlink and `..` resolved (`realpath(3)`): how two paths are compared for
/// being the same place, or one inside the other.
public enum RealPath {
    /// The resolved path; nil when it leads nowhere.
    public static func of(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
