import Foundation

/// The document types of the archive.
public enum DocumentType: String, Sendable, CaseIterable, Codable {
    case innkalling
    case epikrise
    case labSvar = "lab-svar"
    case resept
    case henvisning
    case vedtak
    case annet

    /// The word a title starts with.
    public var titleWord: String {
        switch self {
        case .innkalling: "Innkalling"
        case .epikrise: "Epikrise"
        case .labSvar: "Prøvesvar"
        case .resept: "Resept"
        case .henvisning: "Henvisning"
        case .vedtak: "Vedtak"
        case .annet: "Brev"
        }
    }

    /// The type a person typed (`Epikrise`, `lab-svar`), or nil when it is none of them.
    public init?(name: String) {
        self.init(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
