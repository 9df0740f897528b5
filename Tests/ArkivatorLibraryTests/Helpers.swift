import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Testing

/// Made-up fødselsnumre for tests: a birth date and the first individual number (from `from`)
/// whose control digits exist.
enum TestNumber {
    static func valid(_ ddmmyy: String, from individual: Int = 100) -> String {
        let date = ddmmyy.compactMap(\.wholeNumberValue)
        for candidate in individual...999 {
            let first9 = date + [candidate / 100, candidate / 10 % 10, candidate % 10]
            if let (k1, k2) = Fodselsnummer.controlDigits(first9) {
                return (first9 + [k1, k2]).map(String.init).joined()
            }
        }
        return ""
    }

    /// The same number with its last control digit changed.
    static func wrongControl(_ number: String) -> String {
        let last = number.last?.wholeNumberValue ?? 0
        return String(number.dropLast()) + String((last + 1) % 10)
    }
}

extension Data {
    func contains(_ text: String) -> Bool { range(of: Data(text.utf8)) != nil }
}

func posixMode(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
}

/// A library in `directory` with a fixed key from the environment (nothing in the real environment counts).
func openStore(_ directory: URL, key: LibraryKey? = nil) throws -> (FamilyStore, Database) {
    let library = LibraryLocation(directory: directory)
    let database = try Database.open(library: library)
    let key = try key ?? LibraryKey.load(library: library, environment: [:])
    return (FamilyStore(database: database, key: key), database)
}
