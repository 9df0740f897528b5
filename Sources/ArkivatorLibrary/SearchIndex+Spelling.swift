import ArkivatorCore
import Foundation

/// Words typed as a Norwegian keyboard would not type them: without æ, ø and å («blodprove»,
/// «paaske», «vaeret»), or with one typing error in a longer word («blodprøbe»). Their other
/// spellings are index terms found in the vocabulary; they are searched beside the word and rank
/// below the words as typed (``SearchIndex/rankingSpec(_:groups:fuzzy:rows:in:)``).
enum SearchSpelling {
    /// Letters and pairs a keyboard without æ, ø and å writes for them, and their one form; the
    /// vocabulary keeps every term in this form too (`vocabulary.folded`, migration 24), in the
    /// same order of replacements (``foldSQL(_:)``).
    static let foldings: [(String, String)] = [
        ("æ", "a"), ("ø", "o"), ("å", "a"), ("ä", "a"), ("ö", "o"), ("é", "e"), ("è", "e"), ("ü", "u"),
        ("aa", "a"), ("ae", "a"), ("oe", "o"),
    ]

    /// `term` in the one form every spelling of it has: «blodprøv» and «blodprov» are «blodprov»,
    /// «påsk» and «paask» are «pask».
    static func fold(_ term: String) -> String {
        foldings.reduce(term) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    /// ``fold(_:)`` as an SQL expression over `column`.
    static func foldSQL(_ column: String) -> String {
        foldings.reduce(column) { "replace(\($0), '\($1.0)', '\($1.1)')" }
    }

    /// The spellings with æ, ø and å a word typed without them may stand for («ore» → «øre»,
    /// «aarlig» → «årlig», «stoenad» → «stønad»): each o, a, aa, ae and oe as written or as the
    /// letter it may stand for; at most ``unfoldLimit``, the word itself not among them.
    static func unfoldings(_ word: String) -> [String] {
        let letters = Array(word.lowercased())
        var results: Set<String> = []
        func walk(_ index: Int, _ built: String) {
            guard results.count < unfoldLimit * 2 else { return }
            guard index < letters.count else {
                results.insert(built)
                return
            }
            let pair = index + 1 < letters.count ? String(letters[index...index + 1]) : ""
            switch pair {
            case "aa": walk(index + 2, built + "å")
            case "ae": walk(index + 2, built + "æ")
            case "oe": walk(index + 2, built + "ø")
            default: break
            }
            switch letters[index] {
            case "o": for letter in ["o", "ø"] { walk(index + 1, built + letter) }
            case "a": for letter in ["a", "å", "æ"] { walk(index + 1, built + letter) }
            default: walk(index + 1, built + String(letters[index]))
            }
        }
        walk(0, "")
        results.remove(word.lowercased())
        return Array(results.sorted().prefix(unfoldLimit))
    }

    static let unfoldLimit = 24

    /// The shortest word a typing error is looked for in: a shorter one has too many neighbours.
    static let typoLength = 6
    /// The most other spellings a word is searched with.
    static let limit = 6

    /// Whether `a` and `b` are one edit apart: one letter added, left out, changed, or two side
    /// by side swapped.
    static func oneEditApart(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
        guard a != b, abs(a.count - b.count) <= 1 else { return false }
        var start = 0
        while start < a.count, start < b.count, a[start] == b[start] { start += 1 }
        var endA = a.count, endB = b.count
        while endA > start, endB > start, a[endA - 1] == b[endB - 1] { endA -= 1; endB -= 1 }
        let restA = endA - start, restB = endB - start
        if restA <= 1 && restB <= 1 { return true }
        // Two letters side by side swapped: «blodpørve».
        return restA == 2 && restB == 2 && a[start] == b[start + 1] && a[start + 1] == b[start]
    }
}

extension SearchIndex {
    /// For each word, index terms that are other spellings of it: the terms whose folded form
    /// starts with the word's (its inflections and the compounds it starts, spelled with æ, ø
    /// and å), and, for a word of ``SearchSpelling/typoLength`` letters or more that the index
    /// does not hold, the terms one typing error away. Terms the word already stands for
    /// (`known`) are left out.
    func spellings(for words: [String], known: [String: [(text: String, prefix: Bool)]],
                   in database: Database) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        let folded = try database.prepare("SELECT term FROM vocabulary WHERE folded >= ? AND folded < ? LIMIT ?")
        let exists = try database.prepare("SELECT 1 FROM vocabulary WHERE term = ?")
        for word in Set(words) {
            let stems = try database.norwegianTerms(word)
            guard stems.count == 1, let stem = stems.first else { continue }
            // A short word is not in the vocabulary: its spellings with æ, ø and å are asked for by name.
            guard CompoundVocabulary.worthKeeping(stem) else {
                let terms = try respellings(of: word, in: database).prefix(2).map(\.term)
                if !terms.isEmpty { result[word] = terms }
                continue
            }
            let taken = Set([stem] + (known[word] ?? []).map(\.text))
            let form = SearchSpelling.fold(stem)
            try folded.bind([form, form + "\u{10FFFF}", SearchSpelling.limit * 8])
            var found = try folded.rows().compactMap { $0[0].string }.filter { !taken.contains($0) }
            found = Array(found.sorted { ($0.count, $0) < ($1.count, $1) }.prefix(SearchSpelling.limit))
            try exists.bind([stem])
            if found.isEmpty, try !exists.step(), stem.unicodeScalars.count >= SearchSpelling.typoLength {
                found = try typos(of: stem, in: database).filter { !taken.contains($0) }
            }
            if !found.isEmpty { result[word] = found }
        }
        return result
    }

    /// The spellings of `word` with æ, ø and å that the index holds, the commonest first, with
    /// their index term and how many letters hold it; only those more letters hold than `word`.
    func respellings(of word: String, in database: Database) throws -> [(word: String, term: String, documents: Int)] {
        guard word.unicodeScalars.contains(where: { "ao".unicodeScalars.contains($0) }) else { return [] }
        let count = try database.prepare("SELECT documents FROM term_documents WHERE term = ?")
        func documents(_ term: String) throws -> Int {
            try count.bind([term])
            return try count.step() ? count.row()[0].int ?? 0 : 0
        }
        let own = try database.norwegianTerms(word)
        let typed = own.count == 1 ? try documents(own[0]) : 0
        var found: [(word: String, term: String, documents: Int)] = []
        for variant in SearchSpelling.unfoldings(word) {
            let terms = try database.norwegianTerms(variant)
            guard terms.count == 1, terms != own else { continue }
            let held = try documents(terms[0])
            if held > typed { found.append((variant, terms[0], held)) }
        }
        return found.sorted { ($0.documents, $1.word) > ($1.documents, $0.word) }
    }

    /// For each phrase (its words), the phrase with each word spelled as the index holds it most
    /// when a keyboard without æ, ø and å may have written it otherwise («ore nese hals» →
    /// «øre nese hals»); none when no word changes.
    func phraseSpellings(for phrases: [[String]], in database: Database) throws -> [[String]: [String]] {
        var result: [[String]: [String]] = [:]
        for phrase in Set(phrases) {
            var changed = false
            let respelled = try phrase.map { word -> String in
                guard let best = try respellings(of: word, in: database).first else { return word }
                changed = true
                return best.word
            }
            if changed { result[phrase] = respelled }
        }
        return result
    }

    /// The index terms one typing error from `stem`, or starting with a word one typing error
    /// from it (a compound it starts: «blodprøbe» finds «blodprøvesvar»), the commonest first. An
    /// error is in its first half or its second: the terms that start with its first half, and
    /// those that hold the rest after the first half and one letter, hold every such term.
    func typos(of stem: String, in database: Database) throws -> [String] {
        let scalars = Array(stem.unicodeScalars)
        let half = scalars.count / 2
        let head = String(String.UnicodeScalarView(scalars[..<half]))
        let tail = String(String.UnicodeScalarView(scalars[(half + 1)...]))
        var candidates: Set<String> = []
        let starting = try database.prepare("SELECT term FROM vocabulary WHERE term >= ? AND term < ? LIMIT 2000")
        try starting.bind([head, head + "\u{10FFFF}"])
        candidates.formUnion(try starting.rows().compactMap { $0[0].string })
        if tail.unicodeScalars.count >= 3 {
            let ending = try database.prepare("SELECT term FROM vocabulary_trigram WHERE vocabulary_trigram MATCH ? LIMIT 2000")
            try ending.bind(["\"" + tail.replacingOccurrences(of: "\"", with: "\"\"") + "\""])
            candidates.formUnion(try ending.rows().compactMap { $0[0].string })
        }
        let near = candidates.filter { term in
            let letters = Array(term.unicodeScalars)
            return [scalars.count - 1, scalars.count, scalars.count + 1, letters.count].contains { length in
                length > 0 && length <= letters.count && SearchSpelling.oneEditApart(Array(letters[..<length]), scalars)
            }
        }
        guard !near.isEmpty else { return [] }
        let count = try database.prepare("SELECT documents FROM term_documents WHERE term = ?")
        var counted: [(term: String, documents: Int)] = []
        for term in near {
            try count.bind([term])
            counted.append((term, try count.step() ? count.row()[0].int ?? 0 : 0))
        }
        return counted.sorted { ($0.documents, $1.term) > ($1.documents, $0.term) }.prefix(4).map(\.term)
    }
}
