import ArkivatorCore
import ArkivatorOCR
import Foundation

/// Checks that the machine can run the pipeline, for `arkivator doctor`.
public struct Diagnostics: Sendable, Encodable {
    public struct Check: Sendable, Codable {
        public var name: String
        public var ok: Bool
        public var message: String
    }

    public var checks: [Check]
    /// The OpenMP thread limit Tesseract runs under (should be 1).
    public var openMPThreadLimit: Int?
    public var ok: Bool { checks.allSatisfy(\.ok) }

    public static func run() -> Diagnostics {
        var checks: [Check] = []
        do {
            _ = try TesseractEngine(language: "nor")
            checks.append(Check(name: "nor", ok: true, message: UserMessage(
                nb: "Tesseract med norsk språkdata (nor) er klar.", en: "Tesseract with Norwegian data (nor) is ready.").text()))
        } catch {
            checks.append(Check(name: "nor", ok: false, message: "\(error)"))
        }
        do {
            _ = try OrientationDetector()
            checks.append(Check(name: "osd", ok: true, message: UserMessage(
                nb: "Retningsgjenkjenning (osd) er klar.", en: "Orientation detection (osd) is ready.").text()))
        } catch {
            checks.append(Check(name: "osd", ok: false, message: "\(error)"))
        }
        let limit = TesseractEngine.openMPThreadLimit()
        let limitOK = limit == nil || limit == 1
        checks.append(Check(name: "openmp", ok: limitOK, message: limitOK
            ? UserMessage(nb: "OpenMP er begrenset til 1 tråd per side (OMP_THREAD_LIMIT=1).",
                          en: "OpenMP is limited to 1 thread per page (OMP_THREAD_LIMIT=1).").text()
            : UserMessage(nb: "OpenMP bruker \(limit ?? 0) tråder per side; sidene blir trege. Start med OMP_THREAD_LIMIT=1.",
                          en: "OpenMP uses \(limit ?? 0) threads per page; pages will be slow. Start with OMP_THREAD_LIMIT=1.").text()))
        return Diagnostics(checks: checks, openMPThreadLimit: limit)
    }

    public func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private enum CodingKeys: String, CodingKey { case checks, openMPThreadLimit, ok }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(checks, forKey: .checks)
        try c.encode(openMPThreadLimit, forKey: .openMPThreadLimit)
        try c.encode(ok, forKey: .ok)
    }
}
