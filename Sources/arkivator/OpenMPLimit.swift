#if canImport(Glibc)
import Glibc
#endif

/// Makes sure `OMP_THREAD_LIMIT=1` was in the environment when the program was loaded.
enum OpenMPLimit {
    /// Commands that never run Tesseract: they need not start the program a second time.
    static let commandsWithoutOCR: Set<String> = [
        "search", "list", "show", "edit", "delete", "restore", "backup", "export", "reindex", "erase",
        "family", "classify",
    ]

    static func ensure() {
        guard getenv("OMP_THREAD_LIMIT") == nil else { return }
        let arguments = CommandLine.arguments
        if arguments.count > 1, commandsWithoutOCR.contains(arguments[1]) { return }
        setenv("OMP_THREAD_LIMIT", "1", 1)
        // Re-execute this same program with the same arguments; on failure carry on slowly.
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        cArguments.append(nil)
        execv("/proc/self/exe", &cArguments)
        for pointer in cArguments { free(pointer) }
    }
}
