import ArkivatorCore
import ArkivatorLibrary
import Foundation
import TestSupport
import Testing

@Suite struct LibraryKeyTests {
    let number = TestNumber.valid("260187")

    @Test func theKeyFileIsMadeOnceWithOwnerOnlyAccess() throws {
        try withTemporaryDirectory { dir in
            let library = LibraryLocation(directory: dir.appendingPathComponent("bibliotek"))
            let first = try LibraryKey.load(library: library, environment: [:])
            let file = library.directory.appendingPathComponent(LibraryKey.fileName)
            #expect(try posixMode(file) == 0o600)
            #expect(try posixMode(library.directory) == 0o700)
            let bytes = try Data(contentsOf: file)
            #expect(bytes.count == 32)
            #expect(try FileManager.default.contentsOfDirectory(atPath: library.directory.path) == [LibraryKey.fileName],
                    "no temporary file left behind")
            #expect("\(first)" == "LibraryKey(•••)")

            // The same key next time: what one store sealed, the next opens.
            let database = try Database.open(library: library)
            try FamilyStore(database: database, key: first).add(name: "Kari", fodselsnummer: number)
            let second = try LibraryKey.load(library: library, environment: [:])
            #expect(try FamilyStore(database: database, key: second).profiles().first?.fodselsnummer?.digits == number)
            #expect(try Data(contentsOf: file) == bytes)
        }
    }

    @Test func theEnvironmentKeyWinsAndLeavesNoFile() throws {
        try withTemporaryDirectory { dir in
            let library = LibraryLocation(directory: dir)
            let raw = Data((0..<32).map { UInt8($0 * 7 % 256) })
            let environment = ["ARKIVATOR_KEY": raw.base64EncodedString() + "\n"]
            let fromEnvironment = try LibraryKey.load(library: library, environment: environment)
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("library.key").path))
            let database = try Database.open(library: library)
            try FamilyStore(database: database, key: fromEnvironment).add(name: "Kari", fodselsnummer: number)
            let sameBytes = try LibraryKey(bytes: raw)
            #expect(try FamilyStore(database: database, key: sameBytes).profiles().count == 1)

            let notBase64 = #expect(throws: LibraryKeyError.self) {
                try LibraryKey.load(library: library, environment: ["ARKIVATOR_KEY": "ikke base64!"])
            }
            #expect(notBase64?.code == .notBase64)
            let short = #expect(throws: LibraryKeyError.self) {
                try LibraryKey.load(library: library, environment: ["ARKIVATOR_KEY": Data(count: 16).base64EncodedString()])
            }
            #expect(short?.code == .wrongLength)
            #expect(short?.userMessage.norwegian.contains("32 byte") == true)
            #expect(throws: LibraryKeyError.self) { try LibraryKey(bytes: [UInt8](repeating: 1, count: 31)) }
        }
    }

    @Test func aKeyFileOthersCanReadIsRefused() throws {
        try withTemporaryDirectory { dir in
            let library = LibraryLocation(directory: dir)
            _ = try LibraryKey.load(library: library, environment: [:])
            let file = dir.appendingPathComponent("library.key")
            for mode in [0o640, 0o604, 0o660] {
                try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
                let error = #expect(throws: LibraryKeyError.self) { try LibraryKey.load(library: library, environment: [:]) }
                #expect(error?.code == .tooOpen)
                #expect(error?.userMessage.norwegian.contains("chmod 600") == true)
                #expect(error?.userMessage.english.contains("chmod 600") == true)
            }
        }
    }

    @Test func aKeyFileOfTheWrongLengthIsRefused() throws {
        try withTemporaryDirectory { dir in
            let library = LibraryLocation(directory: dir)
            let file = dir.appendingPathComponent("library.key")
            for count in [0, 31, 33, 44] {
                _ = FileManager.default.createFile(atPath: file.path, contents: Data(repeating: 7, count: count),
                                               attributes: [.posixPermissions: 0o600])
                let error = #expect(throws: LibraryKeyError.self) { try LibraryKey.load(library: library, environment: [:]) }
                #expect(error?.code == .wrongLength)
                #expect(error?.userMessage.norwegian.contains("\(count) byte") == true)
                #expect(try Data(contentsOf: file).count == count, "never overwritten")
                try FileManager.default.removeItem(at: file)
            }
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
            let folder = #expect(throws: LibraryKeyError.self) { try LibraryKey.load(library: library, environment: [:]) }
            #expect(folder?.code == .notAFile)
        }
    }
}
