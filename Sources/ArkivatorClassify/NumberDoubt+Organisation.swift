/// An organisation number (the Brønnøysund register's nine digits, "Org.nr. 983 974 899"), in
/// every Norwegian letter's footer: printed as one group of nine digits or three of three.
extension NumberDoubt {
    /// Words that name an organisation number after them ("Org.", "Org.nr.", "Orgnr",
    /// "Organisasjonsnummer", "Foretaksnummer").
    static func isOrganisationLabel(_ word: String) -> Bool {
        ["org", "orgnr", "organisasjonsnummer", "organisasjonsnr", "foretaksnummer", "foretaksnr"]
            .contains(word.lowercased().filter(\.isLetter))
    }

    /// Organisation numbers that do not read as one, as the word indices from their first group
    /// to their last: after a label, on its line (after a short word that ends the label, "nr.",
    /// and the country's "NO"), up to three groups of digits or of marks and capitals ("WE)" for
    /// "983"), the groups stopping at a word of small letters or of four letters or more ("MVA"
    /// ends them too). In doubt when they are not nine digits in one group or three: a group read
    /// as signs holds no digit for any other rule to question. Nothing after the label on its line
    /// (the number on the next line) is no claim.
    static func damagedOrganisationNumbers(_ words: [Word]) -> [ClosedRange<Int>] {
        var found: [ClosedRange<Int>] = []
        for (index, label) in words.enumerated() where isOrganisationLabel(label.text) {
            var next = index + 1
            func onLine(_ j: Int) -> Bool { j < words.count && words[j].line == label.line }
            // The label's end in small letters ("nr.", read "me" too), and the country's prefix.
            if onLine(next), words[next].text.count <= 3, words[next].text.contains(where: \.isLowercase) { next += 1 }
            if onLine(next), words[next].text == "NO" { next += 1 }
            var groups: [Int] = []
            var digits = 0
            while onLine(next), groups.count < 3, digits < 9 {
                let text = words[next].text
                let letters = text.filter(\.isLetter)
                guard text.uppercased() != "MVA", !text.contains(where: \.isLowercase),
                      letters.count < 4 || text.contains(where: \.isNumber) else { break }
                groups.append(next)
                digits += text.filter(\.isNumber).count
                next += 1
            }
            guard let first = groups.first, let last = groups.last else { continue }
            let texts = groups.map { words[$0].text }
            let whole = texts.count == 1 && texts[0].count == 9 && isDigits(texts[0])
                || texts.count == 3 && texts.allSatisfy { $0.count == 3 && isDigits($0) }
            // A group of digits among them: an organisation number, however it was read.
            if !whole, texts.contains(where: { $0.contains(where: \.isNumber) }) { found.append(first...last) }
        }
        return found
    }
}
