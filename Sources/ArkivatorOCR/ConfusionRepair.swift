/// Puts right a word that Tesseract's Norwegian model misread in one of the ways it misreads
/// typewriter and other worn type every time: "d" read as "å" ("Opåragelse"), or as "a" inside
/// a word ("Menighea"); "g" as "z", "s",
/// "ø" or "c" ("Foretasender", "Bekendtøørelse", "erhvervsmæssict"), or "e" or "r" at a word's
/// end ("Forordninz", "Endelir"); "æ" as "w", "s", "z", or "w" before it ("Afvwæbning",
/// "Rumsnere", "Bedsteforzlåre"); at a word's start a capital "M" as "W", a capital "G" as "f", a
/// capital "E" as "F" and a capital "Æ" as "A" ("Warts", "feneralkommissæren", "Frhvervelsen",
/// "Astefæller"). A word is changed only when it is not a word of the ``Lexicon`` and exactly one
/// spelling one or two such steps away is: a name, a code or a word the lists lack stays as read,
/// and a number is never touched.
enum ConfusionRepair {
    /// Letters of at least this many are looked at: shorter words are too often words already.
    static let shortest = 4

    /// The word as it should read, or nil when it stays as it is.
    static func repaired(_ token: String, lexicon: Lexicon? = Lexicon.shared) -> String? {
        let characters = Array(token)
        guard let first = characters.firstIndex(where: \.isLetter),
              let last = characters.lastIndex(where: \.isLetter) else { return nil }
        let core = Array(characters[first...last])
        // Letters only: a compound with a hyphen, a code or a number stays as it is, and so does
        // the first half of a word broken at the line's end.
        guard core.count >= shortest, core.allSatisfy(\.isLetter), characters.last != "-",
              !characters.contains(where: \.isNumber) else { return nil }
        guard let lexicon, !lexicon.contains(String(core)) else { return nil }
        var found: Set<String> = []
        var answer: [Character]?
        for once in steps(core) {
            for candidate in [once] + steps(once) {
                let word = String(candidate)
                guard lexicon.contains(word), found.insert(word.lowercased()).inserted else { continue }
                answer = candidate
            }
            if found.count > 1 { return nil }
        }
        // A small "d" whose ascender did not print ("Menighea", "Fororaningerne"): "a" is too
        // common a letter to take with another step ("folat" is no "Goldt"), so alone.
        for candidate in dSteps(core) {
            let word = String(candidate)
            guard lexicon.contains(word), found.insert(word.lowercased()).inserted else { continue }
            answer = candidate
            if found.count > 1 { return nil }
        }
        guard found.count == 1, let answer else { return nil }
        return String(characters[..<first]) + String(answer) + String(characters[(last + 1)...])
    }

    /// Every spelling with one small "a" of `word` read as the "d" it was: not at the word's
    /// start, where a name's capital stays ("Tana" is no "Tand"), nor in "aa", the old spelling
    /// of "å" ("saaledes").
    static func dSteps(_ word: [Character]) -> [[Character]] {
        word.indices.compactMap { index in
            guard index > 0, word[index] == "a", word[index - 1] != "a", index + 1 == word.count || word[index + 1] != "a" else { return nil }
            var copy = word
            copy[index] = "d"
            return copy
        }
    }

    /// Every spelling one step from `word`.
    static func steps(_ word: [Character]) -> [[Character]] {
        var result: [[Character]] = []
        func replaced(_ index: Int, _ small: Character) -> [Character] {
            var copy = word
            copy[index] = word[index].isUppercase ? Character(small.uppercased()) : small
            return copy
        }
        for (index, letter) in word.enumerated() {
            let small = Character(letter.lowercased())
            let isLast = index == word.count - 1
            switch small {
            case "å": result.append(replaced(index, "d"))
            // A capital "Æ" read without its "E" ("Astefæller").
            case "a" where index == 0 && letter == "A" && word.count > 1 && word[1].isLowercase:
                result.append(replaced(index, "æ"))
            // A "g" whose tail the ribbon did not print ("erhvervsmæssict", "Fiskeribrucz"); not
            // at a word's start, where Latin ("caput", "cava") has its "c".
            case "c" where index > 0: result.append(replaced(index, "g"))
            case "z":
                result.append(replaced(index, "g"))
                result.append(replaced(index, "æ"))
                if isLast { result.append(Array(word.dropLast())) }
            case "w":
                result.append(replaced(index, "æ"))
                if index + 1 < word.count, word[index + 1].lowercased() == "æ" {
                    var copy = word
                    copy.remove(at: index)
                    result.append(copy)
                }
                // A capital "M" read as "W" ("Warts", "Winisteriet").
                if index == 0, letter == "W" { result.append(replaced(index, "m")) }
            case "s":
                result.append(replaced(index, "æ"))
                result.append(replaced(index, "g"))
            case "e" where isLast: result.append(replaced(index, "g"))
            case "r" where isLast: result.append(replaced(index, "g"))
            case "ø": result.append(replaced(index, "g"))
            // A capital "E" whose foot did not print ("Frhvervelsen").
            case "f" where index == 0 && letter == "F" && word.count > 1 && word[1].isLowercase:
                result.append(replaced(index, "e"))
            // A capital "G" read as a small "f" ("feneralkommissæren").
            case "f" where index == 0 && letter == "f" && word.count > 1 && word[1].isLowercase:
                var copy = word
                copy[0] = "G"
                result.append(copy)
            default: break
            }
        }
        return result
    }
}
