import ArkivatorCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Standard output and standard error, and whether a person is watching them.
struct Terminal: Sendable {
    let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    let stderrIsTerminal = isatty(STDERR_FILENO) == 1

    /// One line (or several) on standard output, control characters shown escaped: no text from a
    /// file name, a letter or the library can forge a line or send the terminal an escape sequence.
    func line(_ text: String) {
        FileHandle.standardOutput.write(Data((ShownName.escapedLines(text) + "\n").utf8))
    }

    /// A line carrying the program's own colour codes (`styled`); every text put in it must have
    /// been escaped with ``ShownName/escaped(_:)`` already.
    func styledLine(_ styled: String) {
        FileHandle.standardOutput.write(Data((styled + "\n").utf8))
    }

    func error(_ message: UserMessage) {
        FileHandle.standardError.write(Data((ShownName.lines(message.text()) + "\n").utf8))
    }

    /// Overwrites the current line on standard error (for a progress bar).
    func status(_ text: String) {
        FileHandle.standardError.write(Data(("\r\u{1B}[2K" + text).utf8))
    }

    func clearStatus() {
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
