import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorSync
import Foundation

/// `arkivator-bench --copy N --work DIR`: files N letters (a .docx, a page image and a PDF each,
/// of typical sizes, random bytes) in a new library, then times copying the whole archive to a
/// folder destination (set after filing, as a household does) against `cp -r` of the same files.
/// Prints one JSON object: the median seconds of five runs each, and the ratio.
enum CopyBench {
    static func run(count: Int, work: URL) throws -> [String: Double] {
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let library = try Library.open(LibraryLocation(directory: work.appendingPathComponent("bibliotek")), environment: [:])
        var generator = SystemRandomNumberGenerator()
        let random = { (size: Int) -> Data in Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }) }
        let blob = random(300_000)
        for number in 1...count {
            let person = ["Kari Nordmann", "Ola Nordmann", "Eivind Bøe"][number % 3]
            let date = String(format: "2024-%02d-%02d", number % 12 + 1, number % 28 + 1)
            let title = "\(date) Innkalling Ortopedisk poliklinikk \(number)"
            let document = LibraryDocument(
                sha256: String(format: "%064x", number), sourceName: "brev\(number).jpg", title: title, docType: .innkalling,
                person: person, familyMember: person, institution: "St. Olavs hospital", documentDate: date,
                text: "Innkalling til time ved Ortopedisk poliklinikk, brev \(number).")
            let folder = library.defaultArchiveRoot.appendingPathComponent(person)
            // Sizes as the archive writes them for a one-page letter: .docx ~10 KB, JPEG and PDF ~120–140 KB.
            let files = [(ArchivedFile.Kind.docx, 0, folder.appendingPathComponent("Dokumenter/\(title).docx"), 10_000),
                         (.image, 1, folder.appendingPathComponent("Bilder/\(title).jpeg"), 120_000),
                         (.pdf, 0, folder.appendingPathComponent("Bilder/\(title).pdf"), 140_000)]
            _ = try library.documents.file(document) { reservation in
                try reservation.reserve(files.map(\.2))
                for (_, _, url, size) in files {
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    var bytes = Data(blob.prefix(size))
                    withUnsafeBytes(of: number) { bytes.replaceSubrange(0..<8, with: $0) }
                    try bytes.write(to: url)
                }
                return files.map { ArchivedFile(kind: $0.0, page: $0.1, path: $0.2.path) }
            }
        }
        let worker = UploadWorker(store: AsyncLibrary(library), environment: [:])
        if let pause = ProcessInfo.processInfo.environment["ARKIVATOR_BENCH_PAUSE"].flatMap(Double.init) {
            // For attaching a profiler to the copy alone.
            FileHandle.standardError.write(Data("filed; copying in \(pause) s\n".utf8))
            Thread.sleep(forTimeInterval: pause)
        }
        // `cp -r` of the same files and the whole archive's copy to a new destination, taken in
        // turns, five times each, each side first in every other round (a copy right after another
        // meets a disk that is still writing); the medians are compared. How long creating files
        // takes depends on what the disk did just before (such as deleting many): both sides see it.
        func plainCopy(_ name: String) throws -> TimeInterval {
            sync()
            let started = Date()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/cp")
            process.arguments = ["-r", library.defaultArchiveRoot.path, work.appendingPathComponent(name).path]
            try process.run()
            process.waitUntilExit()
            return Date().timeIntervalSince(started)
        }
        func archiveCopy(_ name: String) throws -> TimeInterval {
            let mirror = work.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: mirror, withIntermediateDirectories: true)
            try library.setSetting(.destination, "folder:\(mirror.path)")
            // The filing's own writes reach the disk first, as they do before `cp -r`.
            sync()
            let started = Date(), cpuBefore = cpuSeconds()
            let report = BlockingWait.run { await worker.runDueJobs() }
            let seconds = Date().timeIntervalSince(started)
            cpu.append(cpuSeconds() - cpuBefore)
            guard report.done.count == count else { throw CocoaError(.fileWriteUnknown) }
            return seconds
        }
        var plain: [TimeInterval] = [], ours: [TimeInterval] = [], cpu: [TimeInterval] = []
        for round in 1...5 {
            if round % 2 == 0 { plain.append(try plainCopy("cp-\(round)")) }
            ours.append(try archiveCopy("kopi-\(round)"))
            if round % 2 == 1 { plain.append(try plainCopy("cp-\(round)")) }
        }
        FileHandle.standardError.write(Data("runs (s): cp -r \(plain.map { String(format: "%.2f", $0) }), arkivator \(ours.map { String(format: "%.2f", $0) }) (processor time \(cpu.map { String(format: "%.2f", $0) }))\n".utf8))
        let median = { (times: [TimeInterval]) in times.sorted()[times.count / 2] }
        let (cp, arkivator) = (median(plain), median(ours))
        try? FileManager.default.removeItem(at: work)
        let ratio = arkivator / max(cp, 0.001)
        // The target: within 2× the time `cp -r` takes; 1 when met, 0 when missed.
        return ["letters": Double(count), "arkivatorSeconds": arkivator, "cpSeconds": cp, "ratio": ratio, "targetRatio": 2,
                "met": ratio <= 2 ? 1 : 0]
    }
}

/// This process's processor time so far (user and system), in seconds.
private func cpuSeconds() -> TimeInterval {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Runs the copy bench when asked (`--copy N --work DIR`) and exits.
func runCopyBenchIfAsked() {
    guard let countText = argument("--copy"), let count = Int(countText), let work = argument("--work") else { return }
    do {
        let result = try CopyBench.run(count: count, work: URL(fileURLWithPath: work))
        let data = (try? JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])) ?? Data()
        print(String(decoding: data, as: UTF8.self))
        exit(0)
    } catch {
        fail("copy bench: \(UserMessage(error: error).english)")
    }
}
