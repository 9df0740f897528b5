import Foundation

/// The laboratory analyses the rules know: one canonical name for the spellings letters use, and
/// for each unit the analysis is reported in, the span of values a living person can have. A value
/// outside that span is a misreading (a lost decimal comma, a digit too many), never a result.
/// The spans are wide on purpose: they catch what OCR does to a number, not what illness does to
/// a person.
public enum LabAnalyses {
    /// An analysis: its canonical name, other spellings (compared lower case, with a specimen
    /// prefix such as "S-" or "fP-" left out), and its units with their spans.
    public struct Analysis: Sendable, Equatable {
        public let name: String
        public let aliases: [String]
        public let units: [UnitSpan]
    }

    /// A unit (canonical spelling, see ``LabUnits``) and the values possible in it.
    public struct UnitSpan: Sendable, Equatable {
        public let unit: String
        public let low: Double
        public let high: Double
    }

    private static func a(_ name: String, _ aliases: [String], _ units: [(String, Double, Double)]) -> Analysis {
        Analysis(name: name, aliases: aliases, units: units.map { UnitSpan(unit: $0.0, low: $0.1, high: $0.2) })
    }

    /// The known analyses. Names are those Norwegian laboratories print most often.
    public static let all: [Analysis] = [
        // Blood counts
        a("Hemoglobin", ["hb", "hgb", "hemoglobin", "haemoglobin", "hemoglobin (hb)", "hb (hemoglobin)"],
          [("g/dL", 3, 25), ("g/L", 30, 250), ("mmol/L", 1.8, 15.5)]),
        a("Leukocytter", ["leukocytter", "leukocyttar", "lpk", "leukocytter (lpk)", "hvite blodlegemer", "wbc",
                          "leukocyttall", "hvite blodceller"],
          [("x10^9/L", 0.1, 500)]),
        a("Trombocytter", ["trombocytter", "trombocyttar", "tpk", "trombocytter (tpk)", "blodplater", "plt",
                           "trombocyttall"],
          [("x10^9/L", 1, 3000)]),
        a("Erytrocytter", ["erytrocytter", "erytrocyttar", "epk", "erytrocytter (epk)", "røde blodlegemer", "rbc"],
          [("x10^12/L", 0.5, 10)]),
        a("Hematokrit", ["hematokrit", "hct", "evf", "erytrocyttvolumfraksjon"], [("%", 5, 80), ("L/L", 0.05, 0.8)]),
        a("MCV", ["mcv"], [("fL", 40, 150)]),
        a("MCH", ["mch"], [("pg", 10, 50)]),
        a("MCHC", ["mchc"], [("g/dL", 20, 45), ("g/L", 200, 450)]),
        a("Retikulocytter", ["retikulocytter", "retikulocyttar"], [("x10^9/L", 1, 1000), ("%", 0, 40)]),
        a("Nøytrofile granulocytter", ["nøytrofile", "nøytrofile granulocytter", "nøytrofilar", "neutrofile"],
          [("x10^9/L", 0, 300)]),
        a("Lymfocytter", ["lymfocytter", "lymfocyttar"], [("x10^9/L", 0, 500)]),
        a("Monocytter", ["monocytter", "monocyttar"], [("x10^9/L", 0, 100)]),
        a("Eosinofile granulocytter", ["eosinofile", "eosinofile granulocytter", "eosinofilar"], [("x10^9/L", 0, 50)]),
        a("Basofile granulocytter", ["basofile", "basofile granulocytter", "basofilar"], [("x10^9/L", 0, 20)]),
        a("SR", ["sr", "senkning", "senkningsreaksjon", "senkingsreaksjon"], [("mm/t", 0, 200), ("mm/h", 0, 200)]),
        // Inflammation, coagulation, heart
        a("CRP", ["crp", "c-reaktivt protein", "c-reaktiv protein"], [("mg/L", 0, 700)]),
        a("INR", ["inr", "pt-inr", "pt (inr)", "protrombintid (inr)"], [("", 0.5, 15)]),
        a("D-dimer", ["d-dimer"], [("mg/L", 0, 100), ("mg/L FEU", 0, 100)]),
        a("Troponin T", ["troponin t", "tnt", "hs-troponin t", "hs-tnt"], [("ng/L", 0, 100_000)]),
        a("Troponin I", ["troponin i", "tni", "hs-troponin i"], [("ng/L", 0, 100_000)]),
        a("NT-proBNP", ["nt-probnp", "nt-pro-bnp", "proBNP"], [("ng/L", 1, 200_000), ("pmol/L", 0.1, 25_000)]),
        // Kidneys and salts
        a("Kreatinin", ["kreatinin", "creatinin", "creatinine"], [("µmol/L", 10, 2500), ("mg/dL", 0.1, 30)]),
        a("eGFR", ["egfr", "estimert gfr", "gfr", "egfr (ckd-epi)", "egfr ckd-epi"],
          [("mL/min/1,73m²", 1, 200), ("mL/min", 1, 250)]),
        a("Karbamid", ["karbamid", "urea"], [("mmol/L", 0.3, 100)]),
        a("Urinsyre", ["urinsyre", "urat"], [("µmol/L", 20, 1500), ("mmol/L", 0.02, 1.5)]),
        a("Natrium", ["natrium", "na", "sodium"], [("mmol/L", 100, 185)]),
        a("Kalium", ["kalium", "k", "potassium"], [("mmol/L", 1.5, 10)]),
        a("Kalsium", ["kalsium", "ca", "kalsium total", "kalsium, total", "total kalsium"], [("mmol/L", 0.8, 5)]),
        a("Kalsium, ionisert", ["ionisert kalsium", "kalsium ionisert", "kalsium, ionisert", "ca++", "ca2+"],
          [("mmol/L", 0.3, 3)]),
        a("Magnesium", ["magnesium", "mg"], [("mmol/L", 0.1, 5)]),
        a("Fosfat", ["fosfat", "fosfor", "uorganisk fosfat"], [("mmol/L", 0.1, 6)]),
        a("Klorid", ["klorid", "cl"], [("mmol/L", 60, 150)]),
        a("Albumin/kreatinin-ratio", ["albumin/kreatinin-ratio", "albumin/kreatinin ratio", "acr",
                                      "albumin-kreatinin-ratio", "u-albumin/kreatinin"],
          [("mg/mmol", 0, 2000)]),
        // Sugar and fats
        a("Glukose", ["glukose", "glucose", "blodsukker", "fastende glukose", "glukose fastende",
                      "glukose, fastende", "glukose (fastende)"],
          [("mmol/L", 0.5, 60)]),
        a("HbA1c", ["hba1c", "hb a1c", "hemoglobin a1c", "glykert hemoglobin", "glykosylert hemoglobin", "glykert hb",
                    "hba1c (glykert hemoglobin)"],
          [("mmol/mol", 5, 200), ("%", 2.5, 20)]),
        a("Totalkolesterol", ["totalkolesterol", "total kolesterol", "total-kolesterol", "kolesterol",
                              "kolesterol total", "kolesterol, total"],
          [("mmol/L", 1, 20)]),
        a("LDL-kolesterol", ["ldl-kolesterol", "ldl kolesterol", "ldl", "ldl-kol", "ldl-k"], [("mmol/L", 0.1, 15)]),
        a("HDL-kolesterol", ["hdl-kolesterol", "hdl kolesterol", "hdl", "hdl-kol", "hdl-k"], [("mmol/L", 0.1, 6)]),
        a("Triglyserider", ["triglyserider", "triglyserid", "tg", "triglyserid (tg)"], [("mmol/L", 0.1, 60)]),
        // Liver, pancreas, muscle
        a("ALAT", ["alat", "alt", "alaninaminotransferase", "alat (alt)"], [("U/L", 0, 10_000)]),
        a("ASAT", ["asat", "ast", "aspartataminotransferase", "asat (ast)"], [("U/L", 0, 10_000)]),
        a("GT", ["gt", "gamma-gt", "gamma gt", "ggt", "γ-gt"], [("U/L", 0, 5000)]),
        a("ALP", ["alp", "alkalisk fosfatase"], [("U/L", 0, 5000)]),
        a("LD", ["ld", "ldh", "laktatdehydrogenase"], [("U/L", 0, 20_000)]),
        a("CK", ["ck", "kreatinkinase"], [("U/L", 0, 200_000)]),
        a("Amylase", ["amylase", "pankreasamylase", "amylase, pankreas"], [("U/L", 0, 10_000)]),
        a("Bilirubin", ["bilirubin", "bilirubin total", "total bilirubin", "bilirubin, total"], [("µmol/L", 1, 900)]),
        a("Albumin", ["albumin"], [("g/L", 5, 70)]),
        a("Laktat", ["laktat"], [("mmol/L", 0.1, 30)]),
        // Hormones
        a("TSH", ["tsh", "tyreoideastimulerende hormon"], [("mIE/L", 0, 200), ("mIU/L", 0, 200), ("mU/L", 0, 200)]),
        a("Fritt T4", ["fritt t4", "ft4", "t4 fritt", "t4, fritt", "fritt tyroksin", "fri t4"], [("pmol/L", 1, 200)]),
        a("Fritt T3", ["fritt t3", "ft3", "t3 fritt", "t3, fritt", "fri t3"], [("pmol/L", 0.5, 60)]),
        a("Anti-TPO", ["anti-tpo", "tpo-antistoff", "anti tpo"], [("kIE/L", 0, 100_000), ("kU/L", 0, 100_000)]),
        a("PSA", ["psa", "psa total", "psa, total"], [("µg/L", 0, 20_000)]),
        a("Testosteron", ["testosteron"], [("nmol/L", 0, 150)]),
        a("Kortisol", ["kortisol"], [("nmol/L", 1, 5000)]),
        a("Prolaktin", ["prolaktin"], [("mIE/L", 1, 50_000), ("mIU/L", 1, 50_000)]),
        // Iron and vitamins
        a("Ferritin", ["ferritin"], [("µg/L", 0, 100_000), ("ng/mL", 0, 100_000)]),
        a("Jern", ["jern", "serum-jern"], [("µmol/L", 0, 100)]),
        a("Transferrin", ["transferrin"], [("g/L", 0.5, 7)]),
        a("Transferrinmetning", ["transferrinmetning", "jernmetning"], [("%", 1, 100)]),
        a("Vitamin B12", ["vitamin b12", "b12", "b12-vitamin", "kobalamin", "cobalamin", "vitamin b12 (kobalamin)"],
          [("pmol/L", 30, 10_000)]),
        a("Folat", ["folat", "folsyre"], [("nmol/L", 1, 150)]),
        a("25-OH vitamin D", ["25-oh vitamin d", "25-oh-vitamin d", "25 oh vitamin d", "25(oh) vitamin d",
                              "25-hydroksyvitamin d", "25-oh-d", "vitamin d", "d-vitamin", "vitamin d3",
                              "25-oh vitamin d3", "25-oh-vitamin d3"],
          [("nmol/L", 2, 600), ("ng/mL", 1, 250)]),
    ]

    /// Letters and digits of a name, lower case, single spaces; a specimen prefix ("S-", "P-",
    /// "B-", "fS-", "U-", "Sr-") and a trailing colon left out.
    static func key(_ name: String) -> String {
        var s = name.lowercased().trimmingCharacters(in: .whitespaces)
        while s.hasSuffix(":") { s.removeLast() }
        for prefix in ["fs-", "fp-", "sr-", "s-", "p-", "b-", "u-", "eb-", "pt-"] where s.hasPrefix(prefix) && s.count > prefix.count + 1 {
            let rest = String(s.dropFirst(prefix.count))
            // "pt-inr" is an alias of its own; keep prefixes that are part of a known spelling.
            if !Self.aliasIndex.keys.contains(s) { s = rest }
            break
        }
        return s.split(whereSeparator: { $0 == " " }).joined(separator: " ")
    }

    /// Whether a name the rules do not know is the first words of one they know ("Fritt" of
    /// "Fritt T4"): a name cut short.
    static func isCutName(_ printed: String) -> Bool {
        let k = key(printed)
        guard k.count >= 3, aliasIndex[k] == nil else { return false }
        return aliasIndex.keys.contains { $0.hasPrefix(k + " ") }
    }

    /// Whether a name the rules do not know is one letter off a known one ("CRAP" or "CR" for
    /// "CRP"): names under five letters are never taken for the analysis they are near (too many
    /// are near each other), but a row under such a name may be read wrong.
    static func isNearName(_ printed: String) -> Bool {
        let k = Array(key(printed))
        guard k.count >= 3, aliasIndex[String(k)] == nil else { return false }
        return aliasIndex.keys.contains { alias in
            alias.count >= 3 && abs(alias.count - k.count) <= 1 && editDistance(k, Array(alias), limit: 1) <= 1
        }
    }

    /// The one analysis a name the rules do not know is one letter off ("eGEFR" for "eGFR",
    /// "TSM" for "TSH"), when the row prints a unit that analysis is reported in and no other
    /// analysis that near is: the unit tells which of the names near it was printed. Nil when
    /// none, or more than one, fits.
    static func nearAnalysis(_ printed: String, units: [String]) -> Analysis? {
        let k = Array(key(printed))
        guard k.count >= 3, aliasIndex[String(k)] == nil, !units.isEmpty else { return nil }
        var found: Int?
        for (alias, i) in aliasIndex where alias.count >= 3 && abs(alias.count - k.count) <= 1
            && editDistance(k, Array(alias), limit: 1) <= 1 {
            let spans = all[i].units.map(\.unit)
            let fits = units.contains { printed in
                spans.contains { LabUnits.same($0, printed) } || LabUnits.closest(to: printed, among: spans) != nil
            }
            guard fits else { continue }
            if let f = found, f != i { return nil }
            found = i
        }
        return found.map { all[$0] }
    }

    /// Every alias (and canonical name) in `key` form, to its analysis.
    static let aliasIndex: [String: Int] = {
        var index: [String: Int] = [:]
        for (i, analysis) in all.enumerated() {
            for alias in [analysis.name] + analysis.aliases {
                let k = alias.lowercased()
                if index[k] == nil { index[k] = i }
            }
        }
        return index
    }()

    /// The analysis a printed name stands for: exact (after `key`), then without or with only a
    /// parenthesised part ("Leukocytter (LPK)"), then, for names of five letters or more, one
    /// letter off (two for twelve or more) when a single analysis is that close (OCR damage).
    public static func analysis(named printed: String) -> Analysis? {
        let k = key(printed)
        guard !k.isEmpty else { return nil }
        if let i = aliasIndex[k] { return all[i] }
        if let open = k.firstIndex(of: "("), let close = k.lastIndex(of: ")"), open < close {
            let outside = (String(k[..<open]) + String(k[k.index(after: close)...])).trimmingCharacters(in: .whitespaces)
            let inside = String(k[k.index(after: open)..<close]).trimmingCharacters(in: .whitespaces)
            if let i = aliasIndex[outside] ?? aliasIndex[inside] { return all[i] }
        }
        let letters = Array(k)
        guard letters.count >= 5 else { return nil }
        let allowed = letters.count >= 12 ? 2 : 1
        var best: (distance: Int, index: Int, unique: Bool)?
        for (alias, i) in aliasIndex where alias.count >= 5 && abs(alias.count - letters.count) <= allowed {
            let d = editDistance(letters, Array(alias), limit: allowed)
            guard d <= allowed else { continue }
            if let b = best {
                if d < b.distance { best = (d, i, true) } else if d == b.distance, b.index != i { best = (d, b.index, false) }
            } else {
                best = (d, i, true)
            }
        }
        guard let best, best.unique else { return nil }
        return all[best.index]
    }

    /// Levenshtein distance, stopping early once every path is over `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        Fuzzy.boundedDistance(a, b, limit: limit)
    }
}
