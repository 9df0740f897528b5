#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Pieces hostile titles and person names are made of.
enum Hostile {
    static let fragments: [String] = [
        "/", "\\", "..", ".", "../", "..\\", "/..", "\0", "\u{1}", "\u{1F}", "\t", "\n", "\r\n", "\u{7F}",
        "\u{85}", "\u{9F}", " ", "   ", "<", ">", ":", "\"", "|", "?", "*", "~$",
        "👨‍👩‍👧‍👦", "🇳🇴", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "👍🏽", "é", "e\u{301}", "\u{301}", "\u{308}\u{308}\u{308}", "å", "A\u{30A}", "Ø", "\u{212B}",
        "한", "\u{1100}\u{1161}", "𝔘", "ﬁ", "\u{10FFFF}", "\u{E000}",
        "CON", "con", "nul.txt", "LPT1", "com9", "aux", "Prn.", "COM¹", "CONIN$",
        "\u{202E}", "\u{FEFF}", "\u{200B}", "\u{00A0}", "\u{2028}", "\u{3000}",
        "Innkalling", "2024-03-01 ", "Kari Nordmann", "Bilder", "Dokumenter", ".tmp", ".arkivator-",
        String(repeating: "ø", count: 120), String(repeating: "x", count: 250),
        String(repeating: "\u{301}", count: 100), String(repeating: "🇳🇴", count: 40),
        String(repeating: "a\u{308}", count: 90),
    ]

    static func string(_ indexes: [Int]) -> String {
        indexes.map { fragments[$0 % fragments.count] }.joined()
    }
}

/// File-system helpers for the archive tests.
enum LayoutFS {
    /// Every regular file and symlink below `root`, as paths relative to it (folders left out).
    static func filesBelow(_ root: URL) -> [String] {
        var result: [String] = []
        func walk(_ folder: String, prefix: String) {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
            for entry in entries {
                let path = folder + "/" + entry
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    walk(path, prefix: prefix + entry + "/")
                } else {
                    result.append(prefix + entry)
                }
            }
        }
        walk(root.path, prefix: "")
        return result.sorted()
    }

    /// `realpath(3)`, or the path itself when it does not exist.
    static func resolved(_ url: URL) -> String {
        guard let pointer = realpath(url.path, nil) else { return url.path }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    static func readBytes(_ url: URL) -> [UInt8]? {
        (try? Data(contentsOf: url)).map { [UInt8]($0) }
    }

    static func permissions(_ url: URL) -> Int {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return -1 }
        return Int(info.st_mode & 0o777)
    }

    /// Root ignores file permissions, so tests that rely on them are skipped for root.
    static let runningAsRoot = geteuid() == 0
}
