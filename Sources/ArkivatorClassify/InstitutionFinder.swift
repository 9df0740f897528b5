import ArkivatorCore
import Foundation

/// Finds the issuer in the letterhead: a known institution from the gazetteer, else a line that
/// names an office by its kind ("… legekontor", "… kommune", "… sykehus").
struct InstitutionFinder {
    let vocabulary: Vocabulary

    /// How many lines from the top count as letterhead.
    static let letterheadLines = 8

    func find(in text: LetterText) -> (name: String, confidence: Double)? {
        let head = Array(text.lines.prefix(Self.letterheadLines))
        // Known institutions: the match nearest the top wins; on one line, the longest name.
        var best: (line: Int, length: Int, name: String, exact: Bool)?
        // Each letterhead line's words, past the marks a logo leaves in front of them.
        let headWords = head.indices.map { Array(text.normalizedWords[$0].drop { $0.filter(\.isLetter).count < 2 }) }
        for (name, form, phrase) in vocabulary.institutionPhrases {
            for index in head.indices {
                let words = headWords[index]
                guard Fuzzy.containsWords(words, phrase, fuzzy: true) else { continue }
                let exact = Fuzzy.containsWords(words, phrase, fuzzy: false)
                // Short forms ("NAV", "OUS") must be exact and stand at the start of the line.
                if form.count <= 4 && !(exact && words.starts(with: phrase.words)) { continue }
                if let current = best {
                    let better = index < current.line
                        || (index == current.line && (exact && !current.exact
                            || (exact == current.exact && form.count > current.length)))
                    if !better { break }
                }
                best = (index, form.count, name, exact)
                break
            }
        }
        // An office named by its kind ("Fana legesenter"), when it stands above any known name:
        // a referral's sender comes before the hospital it is sent to.
        var office: (line: Int, name: String)?
        // Only the top lines are letterhead; further down, an office is more likely the addressee.
        search: for (index, raw) in head.enumerated() where index < min(best?.line ?? 3, 3) {
            let line = Self.withoutLeadingMarks(raw)
            let words = LetterText.words(line)
            guard (1...6).contains(words.count), !line.contains(":") else { continue }
            let lower = words.map { $0.lowercased() }
            for pattern in vocabulary.suffixPatterns {
                for suffix in pattern.suffixes.map({ $0.lowercased() }) where suffix.count > 2 {
                    if let position = lower.lastIndex(where: { $0 == suffix || ($0.hasSuffix(suffix) && $0.count > suffix.count + 2) }),
                       position > 0 || pattern.kind == "hospital" {
                        // Drop stray marks before the name (a logo read as "(p)").
                        let name = words[...position].drop { $0.count < 2 || !($0.first?.isUppercase ?? false) }
                        guard !name.isEmpty else { continue }
                        office = (index, name.joined(separator: " "))
                        break search
                    }
                }
            }
        }
        if let office { return (office.name, office.line == 0 ? 0.8 : 0.7) }
        if let best { return (best.name, best.line <= 3 ? (best.exact ? 0.95 : 0.85) : 0.75) }
        // Last resort: the first line, if it reads like a name.
        if let first = head.first, LetterText.words(first).count <= 5, !first.contains(where: \.isNumber) {
            return (first, 0.4)
        }
        return nil
    }
}

extension InstitutionFinder {
    /// A letterhead line without the marks a logo leaves in front of it when read as text
    /// ("(7| UNN – Laboratoriemedisin", "1 : Storgata legesenter"): leading pieces with fewer
    /// than two letters.
    static func withoutLeadingMarks(_ line: String) -> String {
        line.split(separator: " ").drop { $0.filter(\.isLetter).count < 2 }.joined(separator: " ")
    }
}

/// Finds the department or specialty a letter names.
struct SpecialtyFinder {
    let vocabulary: Vocabulary

    func find(in text: LetterText) -> (specialty: Vocabulary.Specialty, printed: String, confidence: Double)? {
        // The letterhead first (the department under the institution's name, OCR damage allowed),
        // then the rest of the letter (exact words only).
        for (range, confidence, fuzzy) in [(0..<min(text.lines.count, 10), 0.85, true), (0..<text.lines.count, 0.6, false)] {
            // Nearest the top wins; on one line an exact match beats a fuzzy one, then the longer form.
            var best: (index: Int, form: String, line: Int, exact: Bool)?
            for (specialty, form, phrase) in vocabulary.specialtyPhrases {
                for index in range where Fuzzy.containsWords(text.normalizedWords[index], phrase, fuzzy: fuzzy) {
                    let exact = !fuzzy || Fuzzy.containsWords(text.normalizedWords[index], phrase, fuzzy: false)
                    if let current = best {
                        let better = index < current.line
                            || (index == current.line && (exact && !current.exact
                                || (exact == current.exact && form.count > current.form.count)))
                        if !better { break }
                    }
                    best = (specialty, form, index, exact)
                    break
                }
            }
            if let best { return (vocabulary.specialties[best.index], best.form, confidence) }
        }
        return nil
    }
}
