import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// Where the household comes from for classification: a JSON file given on the command line,
/// else the library's family profiles.
enum FamilySource {
    static func profiles(file: String?, library: LibraryLocation) throws -> [FamilyProfile] {
        if let file { return try fromFile(file) }
        return try FamilyStore.open(library: library).profiles()
    }

    /// Reads `{"members": [{"name", "birthDate"?, "personnummer"?}]}`.
    static func fromFile(_ path: String) throws -> [FamilyProfile] {
        struct File: Decodable {
            struct Member: Decodable { var name: String; var birthDate: String?; var personnummer: String? }
            var members: [Member]
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let file = try JSONDecoder().decode(File.self, from: data)
        return try file.members.map { member in
            let number = try member.personnummer.map { try Fodselsnummer($0) }
            return FamilyProfile(name: member.name, birthDate: member.birthDate, fodselsnummer: number)
        }
    }
}
