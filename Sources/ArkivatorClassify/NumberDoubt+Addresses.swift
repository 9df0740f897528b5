/// Numbers of an address judged by the address: a postcode against the place it stands before, a
/// place whose postcode was lost, a house number read as letters. A Norwegian postcode says where
/// the place is (its first two digits are the region), so "1014 Trondheim" cannot be: Trondheim's
/// postcodes are 7000–7099 and 7400–7499.
extension NumberDoubt {
    /// The postcodes of towns letters come from and go to, as the ranges they fall in: street
    /// addresses and post boxes of the town, generous at the edges. A place not here is not judged.
    static let postcodeRanges: [String: [ClosedRange<Int>]] = {
        var table: [String: [ClosedRange<Int>]] = [:]
        func add(_ places: [String], _ ranges: ClosedRange<Int>...) {
            for place in places { table[place, default: []] += ranges }
        }
        add(["oslo"], 1...1299)
        add(["sandvika", "bekkestua", "lysaker", "asker"], 1300...1399)
        add(["ski", "lørenskog", "nordbyhagen", "drøbak", "ås"], 1400...1499)
        add(["moss"], 1500...1599)
        add(["fredrikstad"], 1600...1699)
        add(["sarpsborg", "grålum", "halden"], 1700...1799)
        add(["askim", "mysen"], 1800...1899)
        add(["lillestrøm", "strømmen", "jessheim"], 2000...2099)
        add(["kongsvinger"], 2200...2299)
        add(["hamar", "brumunddal", "stange"], 2300...2399)
        add(["elverum"], 2400...2499)
        add(["lillehammer"], 2600...2699)
        add(["gjøvik"], 2800...2899)
        add(["drammen"], 3000...3099)
        add(["tønsberg"], 3100...3199)
        add(["sandefjord", "larvik"], 3200...3299)
        add(["hønefoss"], 3500...3599)
        add(["kongsberg"], 3600...3699)
        add(["skien"], 3700...3799)
        add(["porsgrunn"], 3900...3999)
        add(["stavanger"], 4000...4099)
        add(["sandnes", "egersund"], 4300...4399)
        add(["kristiansand"], 4600...4699)
        add(["arendal", "grimstad"], 4800...4899)
        add(["bergen"], 5000...5099, 5800...5899)
        add(["stord"], 5400...5499)
        add(["haugesund"], 5500...5599)
        add(["voss"], 5700...5799)
        add(["ålesund"], 6000...6099)
        add(["volda", "ørsta"], 6100...6199)
        add(["molde"], 6400...6499)
        add(["kristiansund"], 6500...6599)
        add(["førde", "sogndal"], 6800...6899)
        add(["trondheim"], 7000...7099, 7400...7499)
        add(["stjørdal"], 7500...7599)
        add(["levanger"], 7600...7699)
        add(["steinkjer"], 7700...7799)
        add(["namsos"], 7800...7899)
        add(["bodø"], 8000...8099)
        add(["narvik"], 8500...8599)
        add(["brønnøysund"], 8900...8999)
        add(["tromsø"], 9000...9099, 9250...9299)
        add(["harstad"], 9400...9499)
        add(["alta"], 9500...9599)
        add(["hammerfest"], 9600...9699)
        add(["vadsø"], 9800...9899)
        add(["kirkenes"], 9900...9999)
        return table
    }()

    /// The postcodes of the text that cannot be their place's: four digits that begin a line or
    /// follow a comma or dash ("Hagegata 22, 0653 Oslo"), before a place the table knows that
    /// ends the line or its part (a district letter after it, "KRISTIANSAND S"), whose postcodes
    /// they are not ("1014 Trondheim" for "7014 Trondheim"). A year before a name in a sentence
    /// ("2024 Oslo kommune …") is no address. Word indices.
    static func misreadPostcodes(_ words: [Word], _ scalars: [Unicode.Scalar]) -> [Int] {
        words.indices.filter { index in
            let word = words[index]
            guard word.text.count == 4, isDigits(word.text), let code = Int(word.text), words.indices.contains(index + 1),
                  words[index + 1].line == word.line, let ranges = postcodeRanges[words[index + 1].text.lowercased()],
                  beginsAddressPart(index, words, scalars) else { return false }
            if words.indices.contains(index + 2), words[index + 2].line == word.line {
                let next = words[index + 2].text
                let district = next.count == 1 && next.first?.isUppercase == true
                let separator = next.allSatisfy { "–-|·".contains($0) }
                guard district || separator || beginsAddressPart(index + 2, words, scalars) else { return false }
            }
            return !ranges.contains { $0.contains(code) }
        }
    }

    /// The places of the text whose postcode was lost: a place the table knows alone on its line
    /// (a district letter after it, "KRISTIANSAND S"), right under a street and house number
    /// ("Nedre Storgate 12" over "Drammen" for "3015 Drammen") or a post box ("Postboks 8100"), in a letter that writes postcodes
    /// (another address has one): a letter from before postcodes (1968) writes "Tøyengata 31⏎Oslo".
    /// Word indices.
    static func placesWithoutPostcode(_ words: [Word], _ scalars: [Unicode.Scalar]) -> [Int] {
        let writesPostcodes = words.indices.contains { index in
            words[index].text.count == 4 && isDigits(words[index].text) && words.indices.contains(index + 1)
                && words[index + 1].line == words[index].line && words[index + 1].text.first?.isUppercase == true
                && beginsAddressPart(index, words, scalars)
        }
        guard writesPostcodes else { return [] }
        return words.indices.filter { index in
            let word = words[index]
            guard postcodeRanges[word.text.lowercased()] != nil, index >= 2, words[index - 1].line == word.line - 1 else { return false }
            // Alone on its line but for a district letter.
            let rest = words[(index + 1)...].prefix { $0.line == word.line }
            guard rest.count <= 1, rest.allSatisfy({ $0.text.count == 1 && $0.text.first?.isUppercase == true }) else { return false }
            // A house number ending the line above, after a street's name.
            let house = words[index - 1], street = words[index - 2]
            guard street.line == house.line, isHouseNumber(house.text) else { return false }
            let name = street.text.lowercased()
            // A post box's number ("Postboks 8100" over "Stavanger"; its label read damaged, "Joks").
            if isPostBoxLabel(name) || name.hasSuffix("oks") { return true }
            return streetEndings.contains { name.hasSuffix($0) && name.count > $0.count + 1 }
        }
    }

    /// The numbers of an address the letter writes more than once with numbers one character
    /// apart: a post box or a street with its number, then the postcode (after a comma on the
    /// line, or first on the next line). "Postboks 148⏎8092 Bodø" in the letterhead and "Postboks
    /// 1480, 8092 Bodø" in the footer cannot both be right; which one is misread the text does not
    /// say, so both are in doubt. Two addresses of a street with numbers further apart are two
    /// houses. Word indices.
    static func disagreeingAddressNumbers(_ words: [Word]) -> [Int] {
        var seen: [String: [Int]] = [:]
        for index in words.indices.dropFirst() {
            let number = words[index], name = words[index - 1]
            guard name.line == number.line, number.text.count <= 5, isHouseNumber(number.text) else { continue }
            let label = name.text.lowercased()
            let postBox = isPostBoxLabel(label)
            guard postBox || streetEndings.contains(where: { label.hasSuffix($0) && label.count > $0.count + 1 }) else { continue }
            // The postcode: the next word, on this line or first on the next.
            guard index + 1 < words.count, words[index + 1].line <= number.line + 1, words[index + 1].text.count == 4,
                  isDigits(words[index + 1].text) else { continue }
            seen[(postBox ? "postboks" : label) + " " + words[index + 1].text, default: []].append(index)
        }
        var doubtful: [Int] = []
        for indices in seen.values where indices.count >= 2 {
            let texts = indices.map { words[$0].text }
            for (k, index) in indices.enumerated() where texts.contains(where: { $0 != texts[k] && oneApart($0, texts[k]) }) {
                doubtful.append(index)
            }
        }
        return doubtful.sorted()
    }

    /// Whether two words differ by one character put in, left out or changed.
    static func oneApart(_ a: String, _ b: String) -> Bool {
        let x = Array(a), y = Array(b)
        if x.count == y.count { return zip(x, y).filter { $0 != $1 }.count == 1 }
        let (short, long) = x.count < y.count ? (x, y) : (y, x)
        guard long.count == short.count + 1 else { return false }
        var i = 0
        while i < short.count, short[i] == long[i] { i += 1 }
        return short[i...] == long[(i + 1)...]
    }

    /// Whether the word at `index` begins a line or a part of a line after a comma or dash.
    static func beginsAddressPart(_ index: Int, _ words: [Word], _ scalars: [Unicode.Scalar]) -> Bool {
        guard index > 0, words[index - 1].line == words[index].line else { return true }
        var at = words[index].range.lowerBound - 1
        while at >= 0, scalars[at] == " " { at -= 1 }
        return at >= 0 && ",–-|·".unicodeScalars.contains(scalars[at])
    }

    /// A house number: digits and an entrance letter ("12", "1B", "75 A" is two words).
    static func isHouseNumber(_ text: String) -> Bool {
        var scalars = Array(text.unicodeScalars)
        if let last = scalars.last, ("A"..."H").contains(last) { scalars.removeLast() }
        return (1...4).contains(scalars.count) && scalars.allSatisfy(NumberShape.isDigit)
    }

    /// A house number with an entrance letter whose digits were read as letters ("IB" for "1B",
    /// "lOA" for "10A"): letters that look like digits, then one of A–H.
    static func isLetteredHouseNumberOfLetters(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 2, scalars.count <= 3, let last = scalars.last, ("A"..."H").contains(last) else { return false }
        return scalars.dropLast().allSatisfy(NumberShape.isLookalike)
    }
}
