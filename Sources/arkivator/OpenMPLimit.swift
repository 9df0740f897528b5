#if canImport(Glibc)
import Glibc
#endif

/// Makes sure `OMP_THREAD_LIMIT=1` was in the environment when the program was loaded.
enum OpenMPLimit {
    static func ensure() {
        guard getenv("OMP_THREAD_LIMIT") == nil else { return }
        setenv("OMP_THREAD_LIMIT", "1", 1)
        // Re-execute this same program with the same arguments; on failure carry on slowly.
        let arguments = CommandLine.arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        cArguments.append(nil)
        execv("/proc/self/exe", &cArguments)
        for pointer in cArguments { free(pointer) }
    }
}
