import Foundation

/// Whether a laboratory row's numbers can be what the letter printed. A row is in doubt when its
/// result is outside what its analysis can be in its unit, when its H/L flag disagrees with its
/// range, when the result or range does not read as a number, or when a decimal comma seems lost.
/// These are the marks a misread number leaves ("Totalkolesterol 52 mmol/L 3,3 - 6,9" for 5,2;
/// "CRP 20 H mg/L 5" for "< 5"); a number OCR changed into another plausible one is found by
/// its low confidence instead (``NumberDoubt``).
public enum LabPlausibility {
    static func check(_ row: LabTable.ParsedRow, flagsInUse: Bool) -> [NumberDoubtReason] {
        var reasons: [NumberDoubtReason] = []
        func add(_ r: NumberDoubtReason) { if !reasons.contains(r) { reasons.append(r) } }

        if row.unitMisread { add(.unitMisread) }
        if row.nameCut { add(.nameCut) }
        if row.nameMisread { add(.nameMisread) }
        guard let value = row.value else { return reasons + [row.valueText.isEmpty ? .valueLost : .valueUnreadable] }

        // The span its analysis allows in its unit.
        var span: LabAnalyses.UnitSpan?
        if let analysis = row.analysis {
            let unit = row.unit ?? ""
            if let match = analysis.units.first(where: { $0.unit == unit }) {
                span = match
            } else if let match = analysis.units.first(where: { LabUnits.same($0.unit, unit) }) {
                span = match
            } else {
                add(.unexpectedUnit)
            }
        }
        if let span, value.value < span.low || value.value > span.high { add(.outsideSpan) }

        // The range: readable, ordered, and possible for the analysis.
        let bounds = Self.bounds(row.range)
        let (low, high, rangeDecimals) = (bounds?.low, bounds?.high, bounds?.decimals ?? 0)
        if case let .between(l, h) = row.range, l.value >= h.value { add(.rangeUnreadable) }
        if case .unreadable = row.range { add(.rangeUnreadable) }
        if let span {
            for bound in [low, high].compactMap({ $0 }) where bound < span.low - 1e-9 && bound != 0 || bound > span.high {
                add(.rangeImplausible)
            }
        }

        // The flag against the range (a result printed with "<" or ">" is not compared).
        if value.comparator == nil, !reasons.contains(.rangeUnreadable), low != nil || high != nil {
            let v = value.value
            let above = high.map { v > $0 } ?? false
            let below = low.map { v < $0 } ?? false
            switch row.flag {
            case "H":
                // High must be at or over the upper limit; a range with only a lower limit has no high.
                if high.map({ v < $0 }) ?? true { add(.flagDisagrees) }
            case "L":
                if low.map({ v > $0 }) ?? true { add(.flagDisagrees) }
            default:
                if above || below {
                    let far = (high.map { v > 2 * $0 } ?? false) || (low.map { v < $0 / 2 } ?? false)
                    if flagsInUse || far { add(.missingFlag) }
                }
            }
            // Decimals lost: a result of one or two digits without decimals, inside a range whose
            // both limits are written with them ("5" for "5,3" in 3,5–10,0).
            if value.decimals == 0, case let .between(l, h) = row.range, l.decimals > 0, h.decimals > 0, !above, !below, v < 100 {
                add(.decimalsLost)
            }
            // A decimal comma lost: a result without decimals where the range has them, outside the
            // range, that would be inside it with the comma back, or where its flag puts it ("32 L"
            // for "3,2 L" in 3,5–10,0).
            if value.decimals < rangeDecimals, !commaPlaces(row, low: low, high: high, decimals: rangeDecimals).isEmpty {
                add(.commaLost)
            }
        }
        return reasons
    }

    /// A reference range's limits (none for a range that does not read, or no range) and the
    /// most decimals they are written with.
    static func bounds(_ range: LabRange) -> (low: Double?, high: Double?, decimals: Int)? {
        switch range {
        case let .between(l, h): (l.value, h.value, max(l.decimals, h.decimals))
        case let .below(h): (nil, h.value, h.decimals)
        case let .above(l): (l.value, nil, l.decimals)
        case .unreadable, .none: nil
        }
    }

    /// The places a lost decimal comma can go in a result printed without one (digits after it,
    /// up to the range's `decimals`) so that it agrees with the range and the flag, where the
    /// result as read does not.
    static func commaPlaces(_ row: LabTable.ParsedRow, low: Double?, high: Double?, decimals: Int) -> [Int] {
        guard let value = row.value, value.comparator == nil, value.decimals == 0, decimals > 0,
              low != nil || high != nil else { return [] }
        func agrees(_ v: Double) -> Bool {
            switch row.flag {
            case "H": return high.map { v >= $0 } ?? false
            case "L": return low.map { v <= $0 } ?? false
            default: return (low.map { v >= $0 } ?? true) && (high.map { v <= $0 } ?? true)
            }
        }
        guard !agrees(value.value) else { return [] }
        return (1...decimals).filter { agrees(value.value / pow(10, Double($0))) }
    }

    /// The result with its lost decimal comma put back, where exactly one place agrees with the
    /// range and the flag (``commaPlaces(_:low:high:decimals:)``) and the result is digits alone:
    /// "3,2" for "32" in a row "32 L … 3,5–10,0". The row stays in doubt («desimalkommaet ser ut
    /// til å mangle»); nil when the comma's place is not that sure.
    static func restoredComma(_ row: LabTable.ParsedRow) -> String? {
        let digits = row.valueText
        guard digits.count >= 2, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        guard let bounds = bounds(row.range) else { return nil }
        if let l = bounds.low, let h = bounds.high, l >= h { return nil }
        let places = commaPlaces(row, low: bounds.low, high: bounds.high, decimals: bounds.decimals)
        guard places.count == 1, let shift = places.first, shift < digits.count else { return nil }
        let cut = digits.index(digits.endIndex, offsetBy: -shift)
        let restored = String(digits[..<cut]) + "," + String(digits[cut...])
        // "05" → "0,5" is fine; "005" is not a number a laboratory prints.
        return restored.hasPrefix("0") && !restored.hasPrefix("0,") ? nil : restored
    }
}
