import Foundation

/// A real full disk for tests: a small tmpfs mounted on a temporary folder. Only root may mount,
/// and only where `mount` works (not in every container); tests that need one are enabled by
/// ``available``.
public enum SmallDisk {
    /// Whether a tmpfs can be mounted here (tried once).
    public static let available: Bool = {
        guard getuid() == 0 else { return false }
        return (try? with(kilobytes: 64) { _ in true }) ?? false
    }()

    /// Mounts a tmpfs of `kilobytes` on `folder` (made if missing; a fresh temporary folder when
    /// nil), runs `body` with it and unmounts it, whatever happens (a folder it made is removed).
    public static func with<T>(kilobytes: Int, at given: URL? = nil, _ body: (URL) throws -> T) throws -> T {
        let folder = given ?? FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-small-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if given == nil { try? FileManager.default.removeItem(at: folder) } }
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", folder.path]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer { _ = run("/bin/umount", ["-l", folder.path]) }
        return try body(folder)
    }

    /// Mounts a tmpfs of `kilobytes` on the folder `folder` (made if missing); false when it could not be.
    /// ``unmount(_:)`` it after (for async tests, which ``with(kilobytes:at:_:)`` cannot wrap).
    public static func mount(kilobytes: Int, at folder: URL) -> Bool {
        (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil
            && run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0700", "tmpfs", folder.path])
    }

    public static func unmount(_ folder: URL) {
        _ = run("/bin/umount", ["-l", folder.path])
    }

    /// Fills the disk holding `folder` to its last byte with one file, `filler`.
    public static func fill(_ folder: URL) {
        let path = folder.appendingPathComponent("filler").path
        guard let handle = fopen(path, "w") else { return }
        defer { fclose(handle) }
        let block = [UInt8](repeating: 0, count: 4096)
        while fwrite(block, 1, block.count, handle) == block.count {}
        fflush(handle)
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
