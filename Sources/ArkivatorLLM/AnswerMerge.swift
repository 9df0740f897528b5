import ArkivatorClassify
import ArkivatorCore
import Foundation

/// Checks a model's answer field by field against the letter and merges it with the rules' result.
///
/// A field is *rejected* (and the rules' value kept) when it is outside the taxonomy, an impossible
/// or future date, a date the text does not print, a sender or name the text does not hold, or it
/// carries a hidden number. An accepted field that agrees with the rules raises the field's
/// confidence; one that disagrees lowers it and lists the field in `needsReview`. The model wins a
/// disagreement only where the rules had nothing (no sender, no date in the text) or were unsure
/// (confidence under the review threshold). The letter date is never today unless the text prints it.
public struct AnswerMerge: Sendable {
    public var reviewThreshold: Double = 0.6
    /// The household's names as in the family profiles.
    public var family: [String]
    public var today: CalendarDate

    public init(family: [String] = [], today: CalendarDate) {
        self.family = family
        self.today = today
    }

    public struct Outcome: Sendable, Equatable {
        public var classification: Classification
        /// Fields the answer gave but the checks refused.
        public var rejected: [String]
        /// Accepted fields that differ from the rules.
        public var disagreed: [String]
    }

    public func merge(rules: Classification, answer: LetterAnswer, text: String) -> Outcome {
        let evidence = TextEvidence(text)
        var merged = rules
        var rejected = Set(answer.badFields)
        var disagreed = Set<String>()
        var confidence = rules.confidence

        func agree(_ field: String) {
            let c = confidence[field] ?? 0.5
            confidence[field] = min(0.99, c + (1 - c) / 2)
        }
        func disagree(_ field: String) {
            confidence[field] = min(confidence[field] ?? 0.5, reviewThreshold - 0.01) * 0.9
            disagreed.insert(field)
        }
        func unsure(_ field: String) -> Bool { (confidence[field] ?? 0) < reviewThreshold }

        // Type: only the taxonomy.
        if let raw = answer.docType {
            if let type = Self.documentType(raw) {
                if type == rules.docType {
                    agree("docType")
                } else {
                    let takeModel = unsure("docType") && rules.docType == .annet
                    disagree("docType")
                    if takeModel { merged.docType = type }
                }
            } else {
                rejected.insert("docType")
            }
        }

        // Date: a real day, not in the future, printed in the letter.
        if let raw = answer.documentDate {
            if let date = CalendarDate(iso: raw), date.year >= 1900, date <= today,
               case let found = evidence.evidence(for: date), found != .absent {
                if rules.documentDateSource == "letter" {
                    if date.iso == rules.documentDate {
                        agree("documentDate")
                    } else {
                        // The rules picked among several printed dates and were unsure: the model's choice wins.
                        let takeModel = unsure("documentDate")
                        disagree("documentDate")
                        if takeModel {
                            merged.documentDate = date.iso
                            merged.documentDateSource = "llm"
                        }
                    }
                } else {
                    // The rules found no date and stood in the scan date: the model's printed one is better.
                    merged.documentDate = date.iso
                    merged.documentDateSource = "llm"
                    confidence["documentDate"] = found == .printed ? 0.7 : 0.5
                }
            } else {
                rejected.insert("documentDate")
            }
        }

        // Sender and department: must stand in the text; taken only where the rules found none.
        func place(_ field: String, proposed: String?, ruled: String?, adopt: (String) -> Void) {
            guard let name = proposed else { return }
            guard !Pseudonyms.holdsNumber(name), evidence.contains(name) else { rejected.insert(field); return }
            if let ruled {
                // A department named differently ("Ortopedi" / "Ortopedisk poliklinikk") is no disagreement.
                if Self.similar(ruled, name) { agree(field) } else if field == "institution" { disagree(field) }
            } else {
                adopt(name)
                confidence[field] = 0.6
            }
        }
        place("institution", proposed: answer.institution, ruled: rules.institution) { merged.institution = $0 }
        // A department is one only when it says so ("… poliklinikk", "… avdeling"), not a job or an office.
        let department = answer.specialty.flatMap { Self.namesDepartment($0) ? $0 : nil }
        if answer.specialty != nil && department == nil { rejected.insert("specialty") }
        place("specialty", proposed: department, ruled: rules.specialty) { merged.specialty = $0 }

        // Person: every part of the name printed; a household member only by the rules' matching
        // or by full agreement with a family name.
        if let name = answer.person {
            if !Pseudonyms.holdsNumber(name), evidence.containsName(name) {
                if let ruled = rules.person {
                    if Self.sameName(ruled, name) { agree("person") } else { disagree("person") }
                } else {
                    merged.person = name
                    merged.familyMember = family.first { Self.sameName($0, name) }
                    confidence["person"] = 0.5
                }
            } else {
                rejected.insert("person")
            }
        }

        // Keywords: the rules' first, then the model's that the text holds.
        let extra = answer.keywords.filter { !Pseudonyms.holdsNumber($0) && evidence.containsWord($0) }
        if extra.count < answer.keywords.count { rejected.insert("keywords") }
        for word in extra where merged.keywords.count < 10
            && !merged.keywords.contains(where: { $0.lowercased() == word.lowercased() }) {
            merged.keywords.append(word)
        }

        merged.title = title(rules: rules, merged: merged, answer: answer, evidence: evidence, rejected: &rejected)
        confidence["title"] = min(confidence["docType"] ?? 0, confidence["documentDate"] ?? 0)
        merged.confidence = confidence.mapValues { ($0 * 100).rounded() / 100 }
        merged.needsReview = Set(confidence.filter { $0.value < reviewThreshold }.map(\.key)).union(disagreed).sorted()
        return Outcome(classification: merged, rejected: rejected.sorted(), disagreed: disagreed.sorted())
    }

    /// The title: the merged date, then the rules' words, with the type word, department and sender
    /// brought in line with the merged fields. The rules name the type and the sender; where they
    /// found no department, the model's subject ("om grunnstønad", "til årskontroll") follows the
    /// type word when every longer word of it stands in the letter and it holds no number.
    func title(rules: Classification, merged: Classification, answer: LetterAnswer, evidence: TextEvidence,
               rejected: inout Set<String>) -> String {
        var words = rules.title.split(separator: " ").dropFirst().map(String.init)
        if merged.docType != rules.docType, let first = words.first, first == rules.docType.titleWord {
            words[0] = merged.docType.titleWord
        }
        if words.isEmpty { words = [merged.docType.titleWord] }
        if rules.institution == nil, rules.specialty == nil, let institution = merged.institution {
            words = [words[0]] + institution.split(separator: " ").prefix(5).map(String.init)
        }
        if rules.specialty == nil, let department = merged.specialty {
            // A department only the model found goes after the type word, as the rules place theirs.
            let added = department.lowercased().split(separator: " ").map(String.init)
            if added.count <= 4 { words.insert(contentsOf: added, at: 1) }
        } else if rules.specialty == nil, let proposed = answer.title {
            if let subject = subject(proposed, type: merged.docType, evidence: evidence, present: words) {
                // "Brev uten avsender" has something to say now: "Brev om …".
                if words.suffix(2) == ["uten", "avsender"] { words.removeLast(2) }
                words.insert(contentsOf: subject, at: 1)
            } else {
                rejected.insert("title")
            }
        }
        return DocumentTitle.make(date: merged.documentDate, words.prefix(10).joined(separator: " "))
    }

    /// The model's title as a subject for ours: its words without the type word and without what the
    /// title says already, 1–6 words, each word of 4 or more letters in the letter, one at least.
    func subject(_ proposed: String, type: DocumentType, evidence: TextEvidence, present: [String]) -> [String]? {
        guard !Pseudonyms.holdsNumber(proposed) else { return nil }
        var words = Self.titleWords(proposed)
        guard words.count == proposed.split(whereSeparator: { $0.isWhitespace }).count else { return nil }
        let known = Set(present.map { $0.lowercased() } + [type.titleWord.lowercased(), type.rawValue])
        while let first = words.first, known.contains(first.lowercased()) { words.removeFirst() }
        while let last = words.last, known.contains(last.lowercased()) { words.removeLast() }
        let long = words.filter { $0.filter(\.isLetter).count >= 4 }
        guard (1...6).contains(words.count), !long.isEmpty, long.allSatisfy(evidence.containsWord),
              !long.allSatisfy({ known.contains($0.lowercased()) }) else { return nil }
        // In lower case, as the rules write departments: all-capital words, and a first word that
        // only starts a sentence ("Blodprøver" → "blodprøver"); other capitals are names and stay.
        return words.enumerated().map { index, word in
            let rest = word.dropFirst()
            if word == word.uppercased() && word.count > 3 { return word.lowercased() }
            if index == 0 && rest == rest.lowercased() { return word.lowercased() }
            return word
        }
    }

    /// A proposed title's words, without a leading date and without digits.
    static func titleWords(_ title: String) -> [String] {
        title.split(whereSeparator: { $0.isWhitespace }).map(String.init)
            .filter { word in !word.contains(where: \.isNumber) && !word.contains("[") && word != "-" && word != "–" }
    }

    /// Whether a name says it is a department ("Nevrologisk poliklinikk", "Kvinneklinikken").
    static func namesDepartment(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["avdeling", "poliklinikk", "klinikk", "seksjon", "sengepost", "laboratori", "senter for"].contains { lower.contains($0) }
    }

    /// The taxonomy's type for a model's label, or nil for anything else.
    static func documentType(_ raw: String) -> DocumentType? {
        let key = raw.lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "_", with: "-").replacingOccurrences(of: " ", with: "-")
        if let type = DocumentType(rawValue: key) { return type }
        switch key {
        case "labsvar", "lab", "prøvesvar", "provesvar": return .labSvar
        default: return nil
        }
    }

    /// Two sender or department names naming the same thing (one holds the other, or they share
    /// most words).
    static func similar(_ a: String, _ b: String) -> Bool {
        let x = Fuzzy.normalizedWords(a), y = Fuzzy.normalizedWords(b)
        guard !x.isEmpty, !y.isEmpty else { return false }
        let shared = Set(x).intersection(y).count
        return shared * 3 >= min(x.count, y.count) * 2
    }

    /// Same person: first and last name agree (middle names and "Etternavn, Fornavn" order aside).
    static func sameName(_ a: String, _ b: String) -> Bool {
        let x = PersonMatcher.parts(a), y = PersonMatcher.parts(b)
        guard let xf = x.first, let xl = x.last, let yf = y.first, let yl = y.last else { return false }
        return xf == yf && xl == yl
    }
}
