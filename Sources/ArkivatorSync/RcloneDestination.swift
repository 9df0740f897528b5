import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// Uploads with the `rclone` program: `rclone copyto FILE REMOTE:PATH/Person/Dokumenter/x.docx`.
///
/// rclone decides whether the remote file is already the same (size and time, or checksum where
/// both sides have one) and then leaves it; rclone checks every transfer itself. It is asked for
/// one try only (`--retries 1 --low-level-retries 1`): the queue does the retrying, with its
/// back-off. Its exit code and its messages say what kind of failure it was:
///
/// | exit | meaning (rclone's docs) | queue |
/// |---|---|---|
/// | 1 | syntax or usage error | `.tool` (gives up) |
/// | 3, 4 | directory / file not found | `.refused` |
/// | 5 | temporary error | `.transient` |
/// | 6 | less serious, not to be retried | `.refused` |
/// | 7 | fatal (account suspended …) | `.refused` |
/// | 2, others | not categorised | by the message, else `.transient` |
///
/// Whatever the code: "connection refused", "no such host" or a time-out is `.transient`; a
/// message with "quota", "insufficient storage", 507 or "no space left" is `.full`; one with
/// 401/403, "unauthorized", "forbidden" or "authenticat…" is `.authentication`; "didn't find
/// section in config file" is `.tool` (no such remote).
public struct RcloneDestination: UploadDestination {
    /// `REMOTE:PATH` as rclone takes it.
    public let target: String
    public let executable: String
    public let environment: [String: String]
    /// How long one `rclone copyto` may take.
    public let timeout: TimeInterval

    public init(target: String, executable: String = "rclone",
                environment: [String: String] = ProcessInfo.processInfo.environment, timeout: TimeInterval = 900) {
        self.target = target
        self.executable = executable
        self.environment = environment
        self.timeout = timeout
    }

    public func close() async {}

    /// `REMOTE:PATH` + `/` + the relative path (no slash after a bare `REMOTE:`).
    func remotePath(_ relative: String) -> String {
        target.hasSuffix(":") || target.hasSuffix("/") ? target + relative : target + "/" + relative
    }

    public func upload(_ file: UploadFile) async throws -> UploadResult {
        _ = try relativeComponents(file.relativePath)
        let destination = remotePath(file.relativePath)
        let (executable, environment, timeout, target) = (executable, environment, timeout, target)
        return try await FileWork.run { () throws -> UploadResult in
            guard FileManager.default.fileExists(atPath: file.path) else { throw UploadFailure.missingFile(file.path) }
            guard let program = ChildProcess.find(executable, environment: environment) else { throw Self.missingProgram }
            let result = try ChildProcess.run(program, [
                "copyto", "--retries", "1", "--low-level-retries", "1", "--contimeout", "10s", "--timeout", "60s",
                "--stats", "0", "-v", file.path, destination,
            ], environment: environment, timeout: timeout)
            if result.timedOut {
                throw UploadFailure.unreachable(target, detail: "rclone took more than \(Int(timeout)) s")
            }
            guard result.status == 0 else {
                throw Self.failure(status: result.status, output: result.output, target: target, file: file.relativePath)
            }
            return result.output.contains("Copied (") ? .uploaded : .unchanged
        }
    }

    public func move(from: String, to: String) async throws -> Bool {
        _ = try relativeComponents(from)
        _ = try relativeComponents(to)
        let (source, target) = (remotePath(from), remotePath(to))
        let result = try await rclone(["moveto", source, target], file: from)
        if result.status == 0 { return true }
        if result.status == 3 || result.status == 4 || result.output.lowercased().contains("not found") { return false }
        throw Self.failure(status: result.status, output: result.output, target: self.target, file: from)
    }

    public func remove(_ path: String) async throws {
        _ = try relativeComponents(path)
        let result = try await rclone(["deletefile", remotePath(path)], file: path)
        if result.status == 0 || result.status == 3 || result.status == 4 || result.output.lowercased().contains("not found") {
            return
        }
        throw Self.failure(status: result.status, output: result.output, target: target, file: path)
    }

    public func list() async throws -> [ListedFile] {
        let result = try await rclone(["lsjson", "-R", "--files-only", "--hash", "--hash-type", "sha256", remotePath("")], file: target)
        if result.status == 3 || result.output.lowercased().contains("directory not found") { return [] }
        guard result.status == 0 else { throw Self.failure(status: result.status, output: result.output, target: target, file: target) }
        struct Item: Decodable {
            var Path: String
            var Size: Int
            var Hashes: [String: String]?
        }
        // rclone writes the JSON list on standard output; any log lines before it are skipped.
        let text = result.output
        let start: String.Index? = text.hasPrefix("[") ? text.startIndex : text.range(of: "\n[").map { text.index(after: $0.lowerBound) }
        guard let start,
              let end = text.range(of: "]", options: .backwards)?.lowerBound, start < end,
              let items = try? JSONDecoder().decode([Item].self, from: Data(text[start...end].utf8)) else {
            throw UploadFailure.serverError(target, detail: "rclone lsjson: unreadable answer")
        }
        return items.map { ListedFile(path: $0.Path, size: $0.Size, sha256: $0.Hashes?["sha256"] ?? $0.Hashes?["SHA-256"]) }
            .sorted { $0.path < $1.path }
    }

    /// Runs rclone once (one try, as for copies).
    private func rclone(_ arguments: [String], file: String) async throws -> ProcessOutput {
        let (executable, environment, timeout, target) = (executable, environment, timeout, target)
        return try await FileWork.run { () throws -> ProcessOutput in
            guard let program = ChildProcess.find(executable, environment: environment) else { throw Self.missingProgram }
            let result = try ChildProcess.run(program, [arguments[0], "--retries", "1", "--low-level-retries", "1",
                                                        "--contimeout", "10s", "--timeout", "60s"] + arguments.dropFirst(),
                                              environment: environment, timeout: timeout)
            if result.timedOut { throw UploadFailure.unreachable(target, detail: "rclone took more than \(Int(timeout)) s") }
            return result
        }
    }

    /// rclone is there and lists the remote (`rclone lsf --max-depth 1`), within ``timeout``
    /// seconds. A folder that is not there yet is fine: `copyto` makes it.
    /// - Throws: ``UploadFailure`` as an upload would (see the table above).
    func checkRemote() async throws(UploadFailure) {
        let (executable, environment, timeout, target) = (executable, environment, timeout, target)
        do {
            try await FileWork.run { () throws -> Void in
                guard let program = ChildProcess.find(executable, environment: environment) else { throw Self.missingProgram }
                let seconds = max(1, Int(timeout.rounded()))
                let result = try ChildProcess.run(program, [
                    "lsf", "--max-depth", "1", "--retries", "1", "--low-level-retries", "1",
                    "--contimeout", "\(seconds)s", "--timeout", "\(seconds)s", target,
                ], environment: environment, timeout: timeout + 5)
                if result.timedOut {
                    throw UploadFailure.unreachable(target, detail: "rclone took more than \(Int(timeout)) s")
                }
                let notThereYet = result.status == 3 || result.output.lowercased().contains("directory not found")
                guard result.status == 0 || notThereYet else {
                    throw Self.failure(status: result.status, output: result.output, target: target, file: target)
                }
            }
        } catch let failure as UploadFailure {
            throw failure
        } catch {
            throw UploadFailure(.tool, nb: UserMessage(error: error).norwegian, en: UserMessage(error: error).english)
        }
    }

    static let missingProgram = UploadFailure(
        .tool, nb: "Fant ikke programmet rclone. Installer det (sudo apt-get install rclone) og kjør arkivator queue retry --all.",
        en: "The rclone program was not found. Install it (sudo apt-get install rclone) and run arkivator queue retry --all.")

    /// rclone's exit code and messages as the queue sees them (see the table above).
    static func failure(status: Int32, output: String, target: String, file: String) -> UploadFailure {
        let detail = Self.lastError(output) ?? "rclone exit \(status)"
        let lower = output.lowercased()
        if ["connection refused", "no such host", "i/o timeout", "connection reset", "context deadline exceeded"]
            .contains(where: lower.contains) {
            return .unreachable(target, detail: detail)
        }
        if lower.contains(/\b507\b/) || ["quota", "insufficient storage", "insufficient_storage", "no space left", "storage full"]
            .contains(where: lower.contains) {
            return .full(target, detail: detail)
        }
        if lower.contains(/\b40[13]\b/) || ["unauthorized", "unauthorised", "forbidden", "authenticat", "invalid_grant", "login failed"]
            .contains(where: lower.contains) {
            return .login(target, detail: detail)
        }
        if lower.contains("didn't find section in config file") || lower.contains("config file not found") && lower.contains("failed to create file system") {
            return UploadFailure(.tool, nb: "rclone kjenner ikke fjernlageret i «\(target)». Sett det opp med rclone config (\(detail)).",
                                 en: "rclone does not know the remote in “\(target)”. Set it up with rclone config (\(detail)).")
        }
        switch status {
        case 1:
            return UploadFailure(.tool, nb: "rclone forsto ikke målet «\(target)» (\(detail)).",
                                 en: "rclone did not understand the destination “\(target)” (\(detail)).")
        case 3, 4, 6, 7:
            return .refused(target, file: file, detail: detail)
        default:
            return .serverError(target, detail: detail)
        }
    }

    /// The last line rclone marked as an error, without its time stamp.
    static func lastError(_ output: String) -> String? {
        let lines = output.split(whereSeparator: \.isNewline).map(String.init)
        guard let line = lines.last(where: { $0.contains("ERROR") || $0.contains("Failed") || $0.contains("CRITICAL") })
            ?? lines.last(where: { !$0.contains("NOTICE") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }) else { return nil }
        var text = line
        for marker in ["ERROR : ", "CRITICAL: ", "Failed to "] {
            if let range = text.range(of: marker) {
                text = marker == "Failed to " ? String(text[range.lowerBound...]) : String(text[range.upperBound...])
                break
            }
        }
        text = text.trimmingCharacters(in: .whitespaces)
        return text.count > 240 ? String(text.prefix(240)) + "…" : text
    }
}
