import ArkivatorCore
import Foundation

/// The data the rules read: institutions, specialties, document-type cues, label words and stop words,
/// kept as JSON files in `Resources/` so they can be extended without touching code.
public struct Vocabulary: Sendable {
    public struct Institution: Sendable, Decodable {
        public var name: String
        public var aliases: [String]
        public var kind: String
    }

    public struct SuffixPattern: Sendable, Decodable {
        public var kind: String
        public var suffixes: [String]
    }

    public struct Specialty: Sendable, Decodable {
        public var name: String
        public var adjective: String
        public var aliases: [String]
    }

    public struct TypeCue: Sendable, Decodable {
        public var cue: String
        public var weight: Double
        public var heading: Bool?
    }

    /// Label words printed before values (`labels.json`).
    public struct Labels: Sendable, Decodable {
        public var letterDate: [String]
        public var otherDate: [String]
        public var patient: [String]
        public var birth: [String]
        /// A health or case worker's role ("fastlege", "saksbehandler"): a name beside one is
        /// never the person a letter is about.
        public var roles: [String]
        public static let empty = Labels(letterDate: [], otherDate: [], patient: [], birth: [], roles: [])
    }

    public var institutions: [Institution]
    public var suffixPatterns: [SuffixPattern]
    public var municipalities: [String]
    public var specialties: [Specialty]
    public var typeCues: [String: [TypeCue]]
    public var stopwords: Set<String>
    /// Only the language's function words (the `nb` and `nn` lists, not the letter words such as
    /// "dato" or "fødselsnummer"): what a search may skip.
    public var functionWords: Set<String> = []
    public var labels: Labels
    /// Institution names and aliases prepared for matching: (canonical name, form, phrase).
    let institutionPhrases: [(name: String, form: String, phrase: Fuzzy.Phrase)]
    /// Specialty names and aliases prepared for matching: (specialty index, form, phrase).
    let specialtyPhrases: [(index: Int, form: String, phrase: Fuzzy.Phrase)]

    public init(institutions: [Institution], suffixPatterns: [SuffixPattern], municipalities: [String],
                specialties: [Specialty], typeCues: [String: [TypeCue]], stopwords: Set<String>,
                labels: Labels = .empty) {
        self.institutions = institutions
        self.suffixPatterns = suffixPatterns
        self.municipalities = municipalities
        self.specialties = specialties
        self.typeCues = typeCues
        self.stopwords = stopwords
        self.labels = labels
        institutionPhrases = institutions.flatMap { institution in
            ([institution.name] + institution.aliases).filter { $0.count >= 3 }.map { (institution.name, $0, Fuzzy.Phrase($0)) }
        }
        specialtyPhrases = specialties.enumerated().flatMap { index, specialty in
            (specialty.aliases + [specialty.name]).filter { $0.count >= 3 }.map { (index, $0, Fuzzy.Phrase($0)) }
        }
    }

    /// The vocabulary shipped with Arkivator.
    public static let standard: Vocabulary = (try? load(from: Bundle.module)) ?? .empty

    static let empty = Vocabulary(institutions: [], suffixPatterns: [], municipalities: [], specialties: [],
                                  typeCues: [:], stopwords: [])

    /// Loads the JSON files from a bundle (or a folder holding them, for tests and extensions).
    public static func load(from bundle: Bundle) throws -> Vocabulary {
        func data(_ name: String) throws -> Data {
            guard let url = bundle.url(forResource: name, withExtension: "json")
                    ?? bundle.url(forResource: name, withExtension: "json", subdirectory: "Resources") else {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name + ".json"])
            }
            return try Data(contentsOf: url)
        }
        struct InstitutionFile: Decodable {
            var institutions: [Institution]
            var suffixPatterns: [SuffixPattern]
            var municipalities: [String]
        }
        struct SpecialtyFile: Decodable { var specialties: [Specialty] }
        struct TypeFile: Decodable { var types: [String: [TypeCue]] }
        let decoder = JSONDecoder()
        let institutions = try decoder.decode(InstitutionFile.self, from: data("institutions"))
        let specialties = try decoder.decode(SpecialtyFile.self, from: data("specialties"))
        let types = try decoder.decode(TypeFile.self, from: data("doctypes"))
        // The stop words are the language's, shared with search (ArkivatorCore); a folder may bring
        // its own (which must then be valid).
        let ownStopwords = (try? data("stopwords"))
        let stop = try ownStopwords.map { try decoder.decode([String: [String]].self, from: $0) } ?? Stopwords.lists
        var vocabulary = Vocabulary(institutions: institutions.institutions, suffixPatterns: institutions.suffixPatterns,
                          municipalities: institutions.municipalities, specialties: specialties.specialties,
                          typeCues: types.types, stopwords: Set(stop.values.joined().map { $0.lowercased() }),
                          labels: try decoder.decode(Labels.self, from: data("labels")))
        vocabulary.functionWords = Set(((stop["nb"] ?? []) + (stop["nn"] ?? [])).map { $0.lowercased() })
        return vocabulary
    }
}
