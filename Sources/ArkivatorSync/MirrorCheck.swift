import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// What the destination holds compared with what it should hold: the archive's letters (those in
/// the trash in its trash folder), by file.
public struct MirrorCheck: Sendable, Equatable {
    /// One file that differs.
    public struct Difference: Sendable, Equatable {
        public enum Kind: String, Sendable, Codable, CaseIterable {
            /// The destination lacks a file of a letter.
            case missing
            /// The destination holds an older or other content at the letter's place.
            case stale
            /// A file Arkivator put there that no letter wants any more (an old name, a purged letter).
            case extra
            /// A file that is not Arkivator's: listed, never touched.
            case unknown
        }

        public var kind: Kind
        /// Below the destination.
        public var path: String
        /// The letter's row, for `missing`, `stale` and `extra` files whose letter is still there.
        public var documentNumber: Int?
    }

    /// The destination setting checked.
    public var destination: String
    /// Its short name.
    public var destinationName: String
    /// Files the destination should hold.
    public var expected: Int
    /// Letters the destination should hold.
    public var letters: Int
    public var differences: [Difference]
    public var checkedAt: Date

    public func count(_ kind: Difference.Kind) -> Int { differences.filter { $0.kind == kind }.count }

    /// Whether the destination holds exactly what it should (files not Arkivator's aside).
    public var isInLine: Bool { differences.allSatisfy { $0.kind == .unknown } }

    /// The check in one or two sentences, for the command line and Settings.
    public var summary: UserMessage {
        let (missing, stale, extra, unknown) = (count(.missing), count(.stale), count(.extra), count(.unknown))
        let files = { (n: Int) in (n == 1 ? "1 fil" : "\(n) filer", n == 1 ? "1 file" : "\(n) files") }
        let strangers = unknown == 0 ? ("", "") : (
            " \(files(unknown).0) der er ikke Arkivators og blir latt i fred.",
            " \(files(unknown).1) there \(unknown == 1 ? "is" : "are") not Arkivator's and \(unknown == 1 ? "is" : "are") left alone.")
        if isInLine {
            return UserMessage(nb: "\(destinationName) har alle \(letters) brev slik arkivet har dem (\(files(expected).0)).\(strangers.0)",
                               en: "\(destinationName) holds all \(letters) letters as the archive has them (\(files(expected).1)).\(strangers.1)")
        }
        var nb: [String] = [], en: [String] = []
        if missing > 0 { nb.append("\(files(missing).0) mangler"); en.append("\(files(missing).1) missing") }
        if stale > 0 { nb.append("\(files(stale).0) er utdatert"); en.append("\(files(stale).1) out of date") }
        if extra > 0 { nb.append("\(files(extra).0) skal ikke være der"); en.append("\(files(extra).1) that should not be there") }
        return UserMessage(nb: "\(destinationName) er ikke lik arkivet: \(nb.joined(separator: ", ")).\(strangers.0)",
                           en: "\(destinationName) differs from the archive: \(en.joined(separator: ", ")).\(strangers.1)")
    }

    /// Lists the destination set now and compares it with the archive (reading every archive
    /// file for its content's SHA-256; a destination that gives no hashes is compared by size).
    /// - Throws: ``UploadFailure`` (the destination cannot be reached or listed), or
    ///   `.badDestination` when none is set.
    public static func run(store: AsyncLibrary, environment: [String: String]) async throws -> MirrorCheck {
        guard let setting = try await store.read({ try $0.setting(.destination) }), !setting.isEmpty else {
            throw UploadFailure(.badDestination, nb: "Ingen kopi er satt opp, så det er ingenting å sjekke.",
                                en: "No copy is set up, so there is nothing to check.")
        }
        let destination = try Destination.parse(setting).open(library: store.library.location, environment: environment)
        let listed = try await destination.list()
        await destination.close()
        let (expected, recorded) = try await store.read { (try $0.uploads.expectedMirror(), try $0.uploads.remoteFiles(at: setting)) }
        return try await FileWork.run {
            try compare(setting: setting, expected: expected, recorded: recorded, listed: listed)
        }
    }

    static func compare(setting: String, expected: [Int: [UploadFile]], recorded: [RemoteFileRecord],
                        listed: [ListedFile]) throws -> MirrorCheck {
        let key = { (path: String) in path.precomposedStringWithCanonicalMapping }
        var there: [String: ListedFile] = [:]
        for file in listed { there[key(file.path)] = file }
        var wanted: [String: (Int, UploadFile)] = [:]
        for (number, files) in expected {
            for file in files { wanted[key(file.relativePath)] = (number, file) }
        }
        var ours: [String: RemoteFileRecord] = [:]
        for record in recorded { ours[key(record.path)] = record }
        var differences: [Difference] = []
        for (path, (number, file)) in wanted.sorted(by: { $0.key < $1.key }) {
            guard let found = there[path] else {
                differences.append(Difference(kind: .missing, path: file.relativePath, documentNumber: number))
                continue
            }
            let local = Library.digest(file.path)
            let same: Bool
            if let sha = found.sha256, let local { same = sha.lowercased() == local.0 } else { same = found.size == local?.1 }
            if !same { differences.append(Difference(kind: .stale, path: file.relativePath, documentNumber: number)) }
        }
        for (path, file) in there.sorted(by: { $0.key < $1.key }) where wanted[path] == nil {
            if let record = ours[path] {
                let letterThere = expected[record.documentNumber] != nil
                differences.append(Difference(kind: .extra, path: file.path, documentNumber: letterThere ? record.documentNumber : nil))
            } else {
                differences.append(Difference(kind: .unknown, path: file.path, documentNumber: nil))
            }
        }
        let name = (try? Destination.parse(setting).displayName) ?? setting
        return MirrorCheck(destination: setting, destinationName: name, expected: wanted.count, letters: expected.count,
                           differences: differences, checkedAt: Date())
    }

    /// Queues what brings the destination in line: each letter with a file missing, out of date
    /// or left at an old place goes round again (the library forgets the places found missing
    /// or stale, so they are sent again); copies of purged letters go on the next pass.
    /// Returns how many letters were queued.
    @discardableResult
    public func queueRepairs(store: AsyncLibrary) async throws -> Int {
        var letters: Set<Int> = []
        var forget: [String] = []
        for difference in differences where difference.kind != .unknown {
            if let number = difference.documentNumber { letters.insert(number) }
            if difference.kind != .extra { forget.append(difference.path) }
        }
        let (chosen, stale) = (letters, forget)
        try await store.write { try $0.uploads.queueCopies(of: chosen, forgetting: stale) }
        return letters.count
    }
}
