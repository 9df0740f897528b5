import Foundation

/// Runs an outside program (python3, pdftotext) and returns its standard output.
public enum OutsideTool {
    /// The program's path in `PATH`, nil when it is not installed.
    public static func which(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// What a person could read in `url`: its bytes (every byte one character, as `strings`
    /// reads a file), and for a `.docx` every part unzipped, for a PDF what `pdftotext` reads.
    public static func readable(_ url: URL) throws -> String {
        var text = String(decoding: try Data(contentsOf: url), as: Unicode.ASCII.self)
        switch url.pathExtension.lowercased() {
        case "docx" where text.hasPrefix("PK"):
            text += try run("python3", ["-c", """
                import sys, zipfile
                z = zipfile.ZipFile(sys.argv[1])
                for name in z.namelist(): sys.stdout.write(z.read(name).decode('utf-8', 'replace') + '\\n')
                """, url.path]).stdout
        case "pdf":
            text += try run("pdftotext", ["-enc", "UTF-8", url.path, "-"]).stdout
        default: break
        }
        return text
    }
}
