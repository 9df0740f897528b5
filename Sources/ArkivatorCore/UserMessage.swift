#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The language user-facing text is printed in.
///
/// Norwegian Bokmål is the default; English is used when the locale variables
/// (`LC_ALL`, `LC_MESSAGES`, `LANG`, first one set wins) name another language.
public enum UILanguage: Sendable, Equatable {
    case norwegian
    case english

    /// The language chosen by the process environment.
    public static let current: UILanguage = from(environment: { name in
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    })

    /// Picks the language from locale variables read through `lookup`.
    public static func from(environment lookup: (String) -> String?) -> UILanguage {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = lookup(name), !value.isEmpty else { continue }
            let lower = value.lowercased()
            if lower == "c" || lower == "posix" || lower.hasPrefix("c.") { return .norwegian }
            if lower.hasPrefix("nb") || lower.hasPrefix("no") || lower.hasPrefix("nn") { return .norwegian }
            return .english
        }
        return .norwegian
    }
}

/// A sentence for a person, in Bokmål and in English.
///
/// Every message says what happened and, where there is something to do, what to do next.
public struct UserMessage: Sendable, Equatable, CustomStringConvertible {
    public let norwegian: String
    public let english: String

    public init(nb norwegian: String, en english: String) {
        self.norwegian = norwegian
        self.english = english
    }

    /// The text in the given language.
    public func text(in language: UILanguage = .current) -> String {
        language == .norwegian ? norwegian : english
    }

    public var description: String { text() }
}
