import Foundation

/// The units laboratory results are printed in, and how a printed unit is recognised: by the
/// vocabulary (spellings folded so that OCR's "umol/l" or "x10*9/L" find "µmol/L" and
/// "x10^9/L"), else by shape (letters on both sides of a slash: "mg/mmol", "kIE/L").
public enum LabUnits {
    /// Canonical spellings.
    public static let known: [String] = [
        "g/dL", "g/L", "mg/dL", "mg/L", "µg/L", "ng/L", "ng/mL", "pg/mL",
        "mol/L", "mmol/L", "µmol/L", "nmol/L", "pmol/L", "mmol/mol", "mg/mmol",
        "U/L", "kU/L", "mU/L", "IE/L", "kIE/L", "mIE/L", "mIU/L", "µkat/L",
        "x10^9/L", "x10^12/L", "10^9/L", "10^12/L",
        "mL/min/1,73m²", "mL/min", "%", "fL", "pg", "L/L", "kPa", "mm/t", "mm/h", "mg/L FEU",
    ]

    /// Folded spelling to canonical.
    static let index: [String: String] = {
        var index: [String: String] = [:]
        for unit in known { index[fold(unit)] = unit }
        return index
    }()

    /// Lower case, micro sign for "u"/"μ" before mol/g/kat, superscripts as digits, no "^", "*",
    /// spaces or "·", "×" as "x".
    static func fold(_ unit: String) -> String {
        var s = ""
        for c in unit.lowercased().unicodeScalars {
            switch c {
            case "^", "*", " ", "·", "\u{00A0}": continue
            case "×": s.unicodeScalars.append("x")
            case "μ": s.unicodeScalars.append("µ")
            case "²": s.unicodeScalars.append("2")
            case "³": s.unicodeScalars.append("3")
            case "⁹": s.unicodeScalars.append("9")
            case "¹": s.unicodeScalars.append("1")
            default: s.unicodeScalars.append(c)
            }
        }
        for stem in ["mol", "g/", "kat"] where s.hasPrefix("u" + stem) { s = "µ" + s.dropFirst() }
        // "x10°/L", "x10%/L": the raised 9 read as a degree or percent sign.
        if s.hasPrefix("x10°") || s.hasPrefix("x10%") { s = "x109" + s.dropFirst(4) }
        return s
    }

    /// Of `units`, the one `printed` is within a few letters of (folded; one letter in four, at
    /// least two), when exactly one is closest: a unit damaged by OCR ("x10"9/L", "umMol/L",
    /// "mL/min/1,73m?").
    public static func closest(to printed: String, among units: [String]) -> String? {
        let p = Array(fold(printed))
        var best: (distance: Int, unit: String, unique: Bool)?
        for unit in units where !unit.isEmpty {
            let u = Array(fold(unit))
            let allowed = max(2, u.count / 4)
            let d = LabAnalyses.editDistance(p, u, limit: allowed)
            guard d <= allowed else { continue }
            if let b = best {
                if d < b.distance { best = (d, unit, true) } else if d == b.distance { best = (d, b.unit, false) }
            } else {
                best = (d, unit, true)
            }
        }
        guard let best, best.unique else { return nil }
        return best.unit
    }

    /// The canonical spelling of a printed unit when the vocabulary has it.
    public static func canonical(_ printed: String) -> String? { index[fold(printed)] }

    /// Whether two spellings name one unit: alike when folded, a times sign before a power of ten
    /// or not ("x10^9/L", "10*9/L": laboratories print it either way).
    static func same(_ a: String, _ b: String) -> Bool {
        func bare(_ unit: String) -> String {
            let folded = fold(unit)
            return folded.hasPrefix("x10") ? String(folded.dropFirst()) : folded
        }
        return bare(a) == bare(b)
    }

    /// Whether a token is a unit: in the vocabulary, or letters on both sides of a slash with no
    /// "<", ">" or leading digit (a unit never starts with a number, except "10^9/L").
    public static func isUnit(_ token: String) -> Bool {
        if canonical(token) != nil { return true }
        guard token.contains("/"), let first = token.unicodeScalars.first,
              first.properties.isAlphabetic || first == "µ" || first == "μ" else { return false }
        let parts = token.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty }) else { return false }
        return parts.first.map { $0.contains(where: \.isLetter) } == true
            && parts.last.map { $0.contains(where: \.isLetter) } == true
            && !token.contains("<") && !token.contains(">")
    }
}

/// Conversions between units of one analysis that are exact by definition, and only those: a
/// value is never converted by a factor that depends on the molecule's weight or the method.
public enum LabUnitConversion {
    /// `value` in `from` as `to`, or nil when the two units are the same or no exact conversion
    /// is known. HbA1c: IFCC (mmol/mol) and NGSP (%) by the master equation
    /// NGSP = 0,09148 × IFCC + 2,152.
    public static func convert(_ value: Double, analysis: String, from: String, to: String) -> Double? {
        guard analysis.caseInsensitiveCompare("HbA1c") == .orderedSame else { return nil }
        let (f, t) = (from.lowercased(), to.lowercased())
        if f == "%", t == "mmol/mol" { return ((value - 2.152) / 0.09148 * 10).rounded() / 10 }
        if f == "mmol/mol", t == "%" { return ((0.09148 * value + 2.152) * 100).rounded() / 100 }
        return nil
    }
}
