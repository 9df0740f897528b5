import ArkivatorCore
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// POSIX calls whose names clash with members (`close()` of a destination).
enum Posix {
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        #if canImport(Glibc)
        Glibc.open(path, flags, mode)
        #else
        Darwin.open(path, flags, mode)
        #endif
    }

    static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }
}

/// A child program's exit and what it printed.
struct ProcessOutput: Sendable {
    var status: Int32
    /// Standard output and standard error together.
    var output: String
    var timedOut: Bool
}

/// Runs child programs (rclone, the notify command), blocking the calling Dispatch thread.
enum ChildProcess {
    /// The program's path: `name` when it holds a slash, else the first match in `PATH`.
    static func find(_ name: String, environment: [String: String]) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments` in a process group of its own and waits until it
    /// exits (at most `timeout` seconds: then the whole group gets SIGTERM, and SIGKILL five
    /// seconds later). Output beyond 1 MiB is dropped. What the program leaves running in the
    /// background (`notify-send … &`) does not hold this up: once the program itself has exited,
    /// only what is already in the pipe is read.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    timeout: TimeInterval) throws(SpawnError) -> ProcessOutput {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SpawnError(program: executable, number: errno) }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        defer { Posix.close(readEnd) }
        // Close-on-exec on both ends, so other programs started meanwhile do not inherit them (the
        // child gets the write end as its output through dup2, which clears the flag there).
        // (`pipe2` is not in Swift's Glibc module; the window until here is a few instructions.)
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        posix_spawn_file_actions_addclose(&actions, readEnd)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A group of its own (so a time-out reaches its children too), no blocked signals (Dispatch
        // threads block some, and the mask would be inherited), default handlers.
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        Posix.close(writeEnd)
        guard spawned == 0 else { throw SpawnError(program: executable, number: spawned) }

        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        func drain() -> Bool {  // false at end of file
            while true {
                let count = read(readEnd, &buffer, buffer.count)
                if count > 0 {
                    if output.count < 1 << 20 { output += buffer[0..<count] }
                } else {
                    return count < 0 && (errno == EAGAIN || errno == EINTR)
                }
            }
        }
        let deadline = Date().addingTimeInterval(timeout)
        var terminatedAt: Date?
        var status: Int32 = 0
        var reaped = false
        var open = true
        while true {
            if open {
                var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, 100)
                open = drain()
            } else {
                usleep(20_000)
            }
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid || (waited < 0 && errno == ECHILD) {
                reaped = waited == pid
                if open { _ = drain() }
                break
            }
            let now = Date()
            if let terminatedAt {
                if now.timeIntervalSince(terminatedAt) > 5 { kill(-pid, SIGKILL) }
            } else if now >= deadline {
                terminatedAt = now
                kill(-pid, SIGTERM)
            }
        }
        // After a time-out, what is left of the group (a child that ignores SIGTERM) goes too.
        if terminatedAt != nil { kill(-pid, SIGKILL) }
        // The exit code, or 128 + the signal as a shell reports it; 255 when the status was lost.
        let code = !reaped ? 255 : status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ProcessOutput(status: code, output: String(decoding: output, as: UTF8.self), timedOut: terminatedAt != nil)
    }
}

/// A child program that could not be started.
struct SpawnError: UserFacingError {
    let program: String
    let number: Int32

    var errorCode: String { "spawn" }

    var userMessage: UserMessage {
        let reason = String(cString: strerror(number))
        return UserMessage(nb: "Kunne ikke starte \(program) (\(reason)). Sjekk at programmet er installert.",
                           en: "Could not start \(program) (\(reason)). Check that the program is installed.")
    }
}
