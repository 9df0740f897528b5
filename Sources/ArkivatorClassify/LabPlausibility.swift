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
        guard let value = row.value else { return reasons + [.valueUnreadable] }

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
        var low: Double?, high: Double?
        var rangeDecimals = 0
        switch row.range {
        case let .between(l, h):
            low = l.value
            high = h.value
            rangeDecimals = max(l.decimals, h.decimals)
            if l.value >= h.value { add(.rangeUnreadable) }
        case let .below(h):
            high = h.value
            rangeDecimals = h.decimals
        case let .above(l):
            low = l.value
            rangeDecimals = l.decimals
        case .unreadable:
            add(.rangeUnreadable)
        case .none:
            break
        }
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
            // range, that would be inside it with the comma back.
            if value.decimals < rangeDecimals, above || below {
                for shift in 1...max(1, rangeDecimals - value.decimals) {
                    let restored = v / pow(10, Double(shift))
                    if (low.map { restored >= $0 } ?? true), (high.map { restored <= $0 } ?? true) {
                        add(.commaLost)
                        break
                    }
                }
            }
        }
        return reasons
    }
}
