import ArkivatorCore
import Foundation

/// Finds the letter's sender: the institution that issues it.
///
/// The letterhead names it: a known institution from the gazetteer, else a line that names an
/// office by its kind ("… legekontor", "… kommune", "… sykehus"). A name on a line that speaks of
/// someone else is never the sender, wherever it stands: the patient's GP ("Fastlege: …"), a
/// copy's addressee ("Kopi til: …"), the one who referred ("Henvist av: …"), the addressee under
/// "Til fastlegen: …". Where the letterhead's first lines name none, the letter says who sends
/// it in other places, and they win over a name found lower down: the one to pay ("Betales til",
/// "Betalingsmottaker"), the one who prescribed or issued ("Forskrevet av: …, Storgata
/// legesenter"), the name under the closing, the footer.
struct InstitutionFinder {
    let vocabulary: Vocabulary

    /// How many lines from the top count as letterhead.
    static let letterheadLines = 8

    func find(in text: LetterText) -> (name: String, confidence: Double)? {
        let head = letterhead(in: text)
        // The letterhead's first lines are sure: a known name on the first two, an office on the
        // first. A name further down may be the addressee's (a referral's hospital under a lost
        // letterhead) or a department's, and yields to what the letter states of its sender.
        if let head, head.line <= (head.known ? 1 : 0) { return (head.name, head.confidence) }
        if let stated = statedSender(in: text) { return (stated, 0.75) }
        let signed = signedOrFooter(in: text)
        if let head, signed == nil || signed == head.name { return (head.name, head.confidence) }
        if let signed { return (signed, 0.6) }
        // Last resort: the first line, if it reads like a name.
        if let first = text.lines.first, LetterText.words(first).count <= 5, !first.contains(where: \.isNumber),
           !isOtherParty(text, 0) {
            return (first, 0.4)
        }
        return nil
    }

    /// The sender named at the top: a known institution nearest the top, or an office named by its
    /// kind standing above it.
    func letterhead(in text: LetterText) -> (name: String, confidence: Double, line: Int, known: Bool)? {
        let head = Array(text.lines.prefix(Self.letterheadLines))
        let others = Set(head.indices.filter { isOtherParty(text, $0) })
        // Known institutions: the match nearest the top wins; on one line, the longest name.
        var best: (line: Int, length: Int, name: String, exact: Bool)?
        // Each letterhead line's words, past the marks a logo leaves in front of them.
        let headWords = head.indices.map { Array(text.normalizedWords[$0].drop { $0.filter(\.isLetter).count < 2 }) }
        for (name, form, phrase) in vocabulary.institutionPhrases {
            for index in head.indices where !others.contains(index) {
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
        for (index, raw) in head.enumerated() where index < min(best?.line ?? 3, 3) && !others.contains(index) {
            guard !Self.withoutLeadingMarks(raw).contains(":"), let name = officeName(in: raw) else { continue }
            office = (index, name)
            break
        }
        if let office { return (office.name, office.line == 0 ? 0.8 : 0.7, office.line, false) }
        if let best { return (best.name, best.line <= 3 ? (best.exact ? 0.95 : 0.85) : 0.75, best.line, true) }
        return nil
    }

    /// An office named by its kind in a short piece of text ("Fana legesenter", "Voss herad"),
    /// past stray marks before it; nil when the text names none.
    func officeName(in raw: String) -> String? {
        let line = Self.withoutLeadingMarks(raw)
        let words = LetterText.words(line)
        guard (1...6).contains(words.count) else { return nil }
        let lower = words.map { $0.lowercased() }
        let kindWords = Set(vocabulary.suffixPatterns.flatMap(\.suffixes).map { $0.lowercased() })
        for pattern in vocabulary.suffixPatterns {
            for suffix in pattern.suffixes.map({ $0.lowercased() }) where suffix.count > 2 {
                if let position = lower.lastIndex(where: { $0 == suffix || ($0.hasSuffix(suffix) && $0.count > suffix.count + 2) }),
                   position > 0 || pattern.kind == "hospital" {
                    // Drop stray marks before the name (a logo read as "(p)").
                    let name = words[...position].drop { $0.count < 2 || !($0.first?.isUppercase ?? false) }
                    // A name has a part of its own besides the kind of office: "Legekontor og
                    // helsestasjon" (a letterhead's second line) only says what the office is.
                    guard name.contains(where: { !kindWords.contains($0.lowercased())
                        && !vocabulary.functionWords.contains($0.lowercased()) }) else { continue }
                    return name.joined(separator: " ")
                }
            }
        }
        return nil
    }

    /// A known institution named in a piece of text (the longest form), else, with `offices`, an
    /// office named by its kind.
    func institution(in piece: String, offices: Bool = true) -> String? {
        let words = Fuzzy.normalizedWords(piece)
        var best: (length: Int, name: String)?
        for (name, form, phrase) in vocabulary.institutionPhrases where Fuzzy.containsWords(words, phrase, fuzzy: true) {
            if form.count <= 4 && !Fuzzy.containsWords(words, phrase, fuzzy: false) { continue }
            if form.count > (best?.length ?? 0) { best = (form.count, name) }
        }
        if let best { return best.name }
        guard offices else { return nil }
        return piece.split(whereSeparator: { ",·|–".contains($0) }).lazy.compactMap { officeName(in: String($0)) }.first
    }
}

extension InstitutionFinder {
    /// Labels before a name that is not the sender's: the patient's GP, a copy's addressee, the
    /// one who referred, the addressee.
    static let otherPartyLabels = ["fastlege", "fastlegen", "kopi", "kopi til", "kopi sendt til", "henvist av",
                                   "henvist fra", "henvist til", "henvisende lege", "tilvist av", "tilvist til",
                                   "til", "mottaker", "sendt til", "til fastlegen", "til fastlege", "adresse"]
    /// Words that start an address line to a health worker ("Fastlege Kari Hansen", "Til fastlegen: …"):
    /// the office under it is the addressee's.
    static let addresseePrefixes = ["fastlege ", "til fastlege", "lege ", "dr. ", "til lege"]
    /// Labels before the sender's name: the one to pay, the one who prescribed or issued.
    static let senderLabels = ["betales til", "betalast til", "betalingsmottaker", "betalingsmottakar",
                               "beløpsmottaker", "forskrevet av", "forskrive av", "utstedt av", "avsender"]

    /// The label of a line ("Kopi til" in "Kopi til: …"), lower-cased; nil when it has none.
    static func label(of line: String) -> String? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let label = line[..<colon].lowercased().trimmingCharacters(in: .whitespaces)
        return label.count <= 30 ? label : nil
    }

    /// Whether line `index` names someone other than the sender: it is labelled so ("Fastlege: …",
    /// "Kopi til …"), or it stands under an address line to a health worker.
    func isOtherParty(_ text: LetterText, _ index: Int) -> Bool {
        let lower = text.lowercasedLines[index]
        let label = Self.label(of: text.lines[index])
        for word in Self.otherPartyLabels {
            if label == word || lower.hasPrefix(word + " ") && word.count > 3 { return true }
        }
        guard index > 0 else { return false }
        let previous = text.lowercasedLines[index - 1]
        return Self.addresseePrefixes.contains { previous.hasPrefix($0) }
    }

    /// The sender the letter states under a label: "Betales til: Storgata legesenter",
    /// "Forskrevet av: Kari Hansen, Madla legekontor". The first such name wins.
    func statedSender(in text: LetterText) -> String? {
        for (index, line) in text.lines.enumerated() {
            let lower = text.lowercasedLines[index]
            guard let label = Self.senderLabels.first(where: { lower.hasPrefix($0) }) else { continue }
            var value = String(line.dropFirst(label.count))
            value = value.trimmingCharacters(in: CharacterSet(charactersIn: " :.-"))
            if let name = institution(in: value) { return name }
            // The one to pay named plainly ("Betales til: Legene på Torget"): its first part.
            if label.hasPrefix("betal") || label.hasPrefix("beløp"),
               let first = value.split(separator: ",").first.map({ $0.trimmingCharacters(in: .whitespaces) }),
               (1...6).contains(LetterText.words(first).count), !first.contains(where: \.isNumber),
               first.first?.isUppercase == true {
                return first
            }
        }
        return nil
    }

    /// The institution named under the closing ("Med vennlig hilsen / Storgata legesenter") or in
    /// the footer (the last lines).
    func signedOrFooter(in text: LetterText) -> String? {
        let closings = ["hilsen", "helsing"]
        var lines: [Int] = []
        for (index, lower) in text.lowercasedLines.enumerated() where closings.contains(where: { lower.hasSuffix($0) }) {
            lines += [index + 1, index + 2].filter { $0 < text.lines.count }
        }
        lines += Array(max(0, text.lines.count - 4)..<text.lines.count)
        // Not a sentence of the body ("… kan du gjøre det på helsenorge.no.").
        lines = lines.filter { index in
            !isOtherParty(text, index) && !text.lines[index].hasSuffix(".") && LetterText.words(text.lines[index]).count <= 16
        }
        // A known name first: under the closing, a department ("Ortopedisk poliklinikk") reads
        // like an office.
        for offices in [false, true] {
            for index in lines {
                if let name = institution(in: text.lines[index], offices: offices) { return name }
            }
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
