import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Mustache

/// A household member's lab values over time («Prøvesvar»): one small chart per analysis,
/// drawn here as SVG (readable without script, printable), with the reference band behind the
/// values, H and L marked by shape as well as colour, values in doubt hollow, each point a link
/// to its letter with the value outlined on the page; and a table of the same values beside it.
/// Each chart's text alternative says the latest value and the trend since the first.
struct LabsView {
    let member: String
    let memberID: Int
    let summary: String
    let doubtNotice: String?
    let charts: [Chart]
    /// The analyses beyond the charted ones: name, latest value and day, how many, a link.
    let others: [[String: String]]
    let analysisCount: Int
    /// How many analyses get a chart on the overview (those measured most); one analysis asked
    /// for gets its chart always.
    static let chartedAnalyses = 12
    let mayConfirm: Bool

    /// One analysis.
    struct Chart {
        let anchor: String
        let analysis: String
        let unit: String
        /// The text alternative: the latest value, how it stands to the range, the trend.
        let description: String
        let descriptionID: String
        let drawing: Drawing?
        let otherUnits: String?
        let rows: [Row]
        /// «Alle 53 verdier for ALAT»: the analysis's own page, where the table has more rows than shown.
        let allLink: [String: String]?
    }

    /// The chart's shapes, in the view box's units (``width`` × ``height``).
    struct Drawing {
        static let width = 320, height = 160
        static let left = 52, right = 308, top = 14, bottom = 124
        let band: (x: Int, y: Int, width: Int, height: Int)?
        let line: String?
        let points: [Point]
        /// The values named beside the axis, where they stand: the reference range's bounds, or the
        /// lowest and highest value where the range gives none.
        let ticks: [(y: Int, text: String)]
        let firstDay: String
        let lastDay: String
        let singleDay: Bool
    }

    struct Point {
        let x: Int
        let y: Int
        let href: String
        let label: String
        /// «circle», or a triangle's corners for H (up) and L (down).
        let triangle: String?
        let hollow: Bool
        let flag: String?

        /// The shape's classes: high or low, hollow when in doubt.
        var shapeClass: String {
            "lab-point" + (flag == "H" ? " lab-high" : flag == "L" ? " lab-low" : "") + (hollow ? " lab-doubt" : "")
        }
    }

    struct Row {
        let day: String
        let value: String
        let unit: String
        let range: String
        let flag: String?
        let flagLabel: String?
        let doubtful: Bool
        let converted: String?
        let href: String
        let letterTitle: String
        let id: Int
    }

    /// How much of each analysis a page shows: on the overview the newest few values in the
    /// chart and the table (a link leads to the rest), one analysis asked for in full.
    struct Extent: Sendable {
        let chartPoints: Int
        let rows: Int
        static let overview = Extent(chartPoints: 12, rows: 3)
        static let whole = Extent(chartPoints: 60, rows: .max)
    }

    /// The analysis the page is narrowed to (`?analyse=`), or nil for the overview.
    let focus: String?

    init(member: String, memberID: Int, readings: [LabReading], access: Access, focus: String? = nil, words: Words) {
        self.member = member
        self.memberID = memberID
        self.focus = focus
        mayConfirm = access.mayChange
        let extent = focus == nil ? Extent.overview : Extent.whole
        var byAnalysis = Dictionary(grouping: readings, by: \.entry.analysis).map { ($0.key, $0.value) }
        // The analyses measured most often first, then by name.
        byAnalysis.sort { ($0.1.count, $1.0.lowercased()) > ($1.1.count, $0.0.lowercased()) }
        // A chart for each of the analyses measured most; the others a line each (the latest value),
        // each with a link to its own page: a page of fifty charts is read by no one.
        charts = byAnalysis.prefix(Self.chartedAnalyses).enumerated().map { index, group in
            // In the order the library reads them: by day.
            Self.chart(name: group.0, readings: group.1, index: index, extent: extent, memberID: memberID, words: words)
        }
        others = byAnalysis.dropFirst(Self.chartedAnalyses).map { name, values in
            let latest = values.last
            return ["analysis": name, "href": Self.analysisLink(memberID: memberID, analysis: name),
                    "value": (latest?.entry.value ?? "") + (latest?.entry.unit.map { " " + $0 } ?? ""),
                    "flag": latest?.entry.flag == "H" ? words.text("Høy", "High") : latest?.entry.flag == "L" ? words.text("Lav", "Low") : "",
                    "day": latest.map { words.date($0.day) } ?? "",
                    "count": words.text("\(values.count) \(values.count == 1 ? "måling" : "målinger")",
                                        "\(values.count) \(values.count == 1 ? "measurement" : "measurements")"),
                    "doubtful": latest?.entry.inDoubt == true ? words.text("Usikker", "Unsure") : ""]
        }
        analysisCount = byAnalysis.count
        let letters = Set(readings.map(\.letter)).count
        summary = readings.isEmpty
            ? words.text("Ingen prøvesvar med tabell er arkivert for \(member) ennå. Når et prøvesvar eller en epikrise med verdier kommer inn, vises verdiene her.",
                         "No lab results with a table are archived for \(member) yet. When a lab result or a discharge letter with values comes in, the values show here.")
            : words.text("\(readings.count) \(readings.count == 1 ? "verdi" : "verdier") fra \(letters) brev"
                            + (focus == nil ? ", \(analysisCount) \(analysisCount == 1 ? "analyse" : "analyser")" : "")
                            + ". Trykk på et punkt for å se verdien på siden i brevet.",
                         "\(readings.count) \(readings.count == 1 ? "value" : "values") from \(letters) \(letters == 1 ? "letter" : "letters")"
                            + (focus == nil ? ", \(analysisCount) \(analysisCount == 1 ? "analysis" : "analyses")" : "")
                            + ". Tap a point to see the value on the letter's page.")
        let doubtful = readings.filter(\.entry.inDoubt).count
        doubtNotice = doubtful == 0 ? nil : words.text(
            "\(doubtful) \(doubtful == 1 ? "verdi kan være feillest" : "verdier kan være feillest") (hule punkter, merket «Usikker»). Sjekk mot sidebildet før du stoler på \(doubtful == 1 ? "den" : "dem").",
            "\(doubtful) \(doubtful == 1 ? "value may be misread" : "values may be misread") (hollow points, marked «Unsure»). Check against the page image before you trust \(doubtful == 1 ? "it" : "them").")
    }

    /// The address of a value on its letter's page.
    static func valueLink(_ reading: LabReading) -> String {
        "/documents/\(reading.letter)?verdi=\(reading.entry.id)#verdi"
    }

    /// The address of one analysis's page.
    static func analysisLink(memberID: Int, analysis: String) -> String {
        "/family/\(memberID)/provesvar?" + WebForm("").query(keeping: [], adding: [("analyse", analysis)])
    }

    static func chart(name: String, readings: [LabReading], index: Int, extent: Extent, memberID: Int, words: Words) -> Chart {
        // The unit most values have; a value in another unit is drawn only where the conversion is exact.
        var counts: [String: Int] = [:]
        for reading in readings { counts[reading.entry.unit ?? "", default: 0] += 1 }
        let unit = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? ""
        // A value as the chart draws it: in the chart's unit, or converted where that is exact; nil when it is not drawn.
        func drawable(_ reading: LabReading) -> (value: Double, converted: String?)? {
            guard let number = LabNumber(printed: reading.entry.value) else { return nil }
            if (reading.entry.unit ?? "") == unit { return (number.value, nil) }
            guard let value = LabUnitConversion.convert(number.value, analysis: name, from: reading.entry.unit ?? "", to: unit) else { return nil }
            return (value, words.text("regnet om fra \(reading.entry.value) \(reading.entry.unit ?? "")",
                                      "converted from \(reading.entry.value) \(reading.entry.unit ?? "")"))
        }
        // The newest values the chart draws, read from the end: a page never reads more numbers than it shows.
        var drawn: [(reading: LabReading, value: Double)] = []
        var position = readings.count - 1
        while position >= 0, drawn.count < extent.chartPoints {
            if let d = drawable(readings[position]) { drawn.append((readings[position], d.value)) }
            position -= 1
        }
        drawn.reverse()
        let first = readings.lazy.compactMap { reading in drawable(reading).map { (reading, $0.value) } }.first
        let other = readings.filter { ($0.entry.unit ?? "") != unit && LabUnitConversion.convert(1, analysis: name, from: $0.entry.unit ?? "", to: unit) == nil }.count
        let older = position >= 0
        let anchor = "analyse-\(index + 1)"
        let rows = readings.suffix(extent.rows).reversed().map { reading -> Row in
            let converted = (reading.entry.unit ?? "") == unit ? nil : drawable(reading)?.converted
            let flagLabel: String? = switch reading.entry.flag {
            case "H": words.text("Høy", "High")
            case "L": words.text("Lav", "Low")
            default: nil
            }
            return Row(day: words.date(reading.day), value: reading.entry.value, unit: reading.entry.unit ?? "",
                       range: reading.entry.range ?? "", flag: reading.entry.flag, flagLabel: flagLabel, doubtful: reading.entry.inDoubt,
                       converted: converted, href: valueLink(reading), letterTitle: reading.title, id: reading.entry.id)
        }
        return Chart(anchor: anchor, analysis: name, unit: unit,
                     description: description(name: name, unit: unit, readings: readings, first: first, latest: drawn.last, words: words),
                     descriptionID: anchor + "-tekst",
                     drawing: drawing(drawn, unit: unit, words: words),
                     otherUnits: older ? words.text("Diagrammet viser de \(extent.chartPoints) nyeste verdiene.",
                                                        "The chart shows the newest \(extent.chartPoints) values.")
                        : other == 0 ? nil : words.text("\(other) \(other == 1 ? "verdi" : "verdier") i en annen enhet står bare i tabellen.",
                                                            "\(other) \(other == 1 ? "value" : "values") in another unit \(other == 1 ? "is" : "are") in the table only."),
                     rows: rows,
                     allLink: readings.count > rows.count
                        ? ["href": analysisLink(memberID: memberID, analysis: name),
                           "text": words.text("Alle \(readings.count) verdier for \(name)", "All \(readings.count) values of \(name)")]
                        : nil)
    }

    /// «HbA1c: siste verdi 45 mmol/mol (17.06.2025), over referanseområdet 20 - 42. Ned fra 48 (08.01.2025).»
    static func description(name: String, unit: String, readings: [LabReading], first: (LabReading, Double)?, latest: (LabReading, Double)?,
                            words: Words) -> String {
        guard let last = readings.last else { return name }
        let unitText = last.entry.unit.map { " " + $0 } ?? ""
        var text = words.text("\(name): siste verdi \(last.entry.value)\(unitText) (\(words.date(last.day)))",
                              "\(name): latest value \(last.entry.value)\(unitText) (\(words.date(last.day)))")
        if let range = last.entry.range {
            switch last.entry.flag {
            case "H": text += words.text(", over referanseområdet \(range)", ", above the reference range \(range)")
            case "L": text += words.text(", under referanseområdet \(range)", ", below the reference range \(range)")
            default: text += words.text(", referanseområde \(range)", ", reference range \(range)")
            }
        }
        if last.entry.inDoubt { text += words.text(" – usikker, sjekk mot sidebildet", " – unsure, check against the page") }
        text += "."
        if let first, let latest, first.0 != latest.0 {
            let from = "\(first.0.entry.value) (\(words.date(first.0.day)))"
            if latest.1 > first.1 {
                text += words.text(" Opp fra \(from).", " Up from \(from).")
            } else if latest.1 < first.1 {
                text += words.text(" Ned fra \(from).", " Down from \(from).")
            } else {
                text += words.text(" Som \(from).", " The same as \(from).")
            }
            text += words.text(" \(readings.count) målinger.", " \(readings.count) measurements.")
        } else if readings.count == 1 {
            text += words.text(" Én måling.", " One measurement.")
        }
        return text
    }

    static func drawing(_ drawn: [(LabReading, Double)], unit: String, words: Words) -> Drawing? {
        guard !drawn.isEmpty else { return nil }
        let bounds = drawn.compactMap { $0.0.entry.range.flatMap(LabNumber.bounds(ofRange:)) }.last
        var low = drawn.map(\.1).min() ?? 0, high = drawn.map(\.1).max() ?? 1
        if let l = bounds?.low { low = min(low, l) }
        if let h = bounds?.high { high = max(high, h) }
        if high - low < 1e-9 {
            low -= max(1, abs(low) * 0.1)
            high += max(1, abs(high) * 0.1)
        }
        let pad = (high - low) * 0.1
        // Values that cannot be below zero keep the axis from going there.
        low = low >= 0 ? max(0, low - pad) : low - pad
        high += pad
        let days = drawn.map { CalendarDate(iso: $0.0.day)?.dayNumber ?? 0 }
        let firstDay = days.min() ?? 0, lastDay = days.max() ?? 0
        let (l, r, t, b) = (Drawing.left, Drawing.right, Drawing.top, Drawing.bottom)
        func x(_ day: Int) -> Int { lastDay == firstDay ? (l + r) / 2 : l + Int(Double(r - l) * Double(day - firstDay) / Double(lastDay - firstDay)) }
        func y(_ value: Double) -> Int { b - Int((Double(b - t) * (value - low) / (high - low)).rounded()) }
        var band: (Int, Int, Int, Int)?
        if let bounds {
            let top = bounds.high.map(y) ?? t, bottom = bounds.low.map(y) ?? b
            let clippedTop = max(t, min(b, top)), clippedBottom = max(t, min(b, bottom))
            if clippedBottom > clippedTop { band = (l, clippedTop, r - l, clippedBottom - clippedTop) }
        }
        let points = zip(drawn, days).map { item, day -> Point in
            let (reading, value) = item
            let (px, py) = (x(day), y(value))
            let triangle: String? = switch reading.entry.flag {
            case "H": "\(px),\(py - 7) \(px - 7),\(py + 5) \(px + 7),\(py + 5)"
            case "L": "\(px),\(py + 7) \(px - 7),\(py - 5) \(px + 7),\(py - 5)"
            default: nil
            }
            var label = "\(reading.entry.analysis) \(reading.entry.value)\(reading.entry.unit.map { " " + $0 } ?? ""), \(words.date(reading.day))"
            if reading.entry.flag == "H" { label += words.text(", høy", ", high") }
            if reading.entry.flag == "L" { label += words.text(", lav", ", low") }
            if reading.entry.inDoubt { label += words.text(", usikker", ", unsure") }
            label += words.text(" – åpne brevet", " – open the letter")
            return Point(x: px, y: py, href: valueLink(reading), label: label, triangle: triangle, hollow: reading.entry.inDoubt,
                         flag: reading.entry.flag)
        }
        let line = points.count >= 2 ? points.map { "\($0.x),\($0.y)" }.joined(separator: " ") : nil
        func number(_ value: Double) -> String {
            let rounded = (value * 10).rounded() / 10
            let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
            return words.language == .english ? text : text.replacingOccurrences(of: ".", with: ",")
        }
        var ticks: [(y: Int, text: String)] = []
        for value in [bounds?.low, bounds?.high].compactMap({ $0 }) { ticks.append((y(value), number(value))) }
        if ticks.isEmpty {
            let values = drawn.map(\.1)
            for value in Set([values.min() ?? 0, values.max() ?? 0]).sorted() { ticks.append((y(value), number(value))) }
        }
        // Two labels too close to read apart: the lower one only.
        if ticks.count == 2, abs(ticks[0].y - ticks[1].y) < 12 { ticks = [ticks[0]] }
        let firstISO = drawn.min { (CalendarDate(iso: $0.0.day)?.dayNumber ?? 0) < (CalendarDate(iso: $1.0.day)?.dayNumber ?? 0) }?.0.day ?? ""
        let lastISO = drawn.max { (CalendarDate(iso: $0.0.day)?.dayNumber ?? 0) < (CalendarDate(iso: $1.0.day)?.dayNumber ?? 0) }?.0.day ?? ""
        return Drawing(band: band.map { ($0.0, $0.1, $0.2, $0.3) }, line: line, points: points, ticks: ticks,
                       firstDay: words.date(firstISO), lastDay: words.date(lastISO), singleDay: firstDay == lastDay)
    }
}

extension LabsView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "member": member
        case "memberID": memberID
        case "summary": summary
        case "doubtNotice": doubtNotice
        case "charts": charts
        case "hasCharts": !charts.isEmpty
        case "others": others
        case "hasOthers": !others.isEmpty
        case "mayConfirm": mayConfirm
        case "timelineLink": "/family/\(memberID)/timeline"
        case "overviewLink": focus == nil ? nil : "/family/\(memberID)/provesvar"
        case "overview": focus == nil
        default: nil
        }
    }
}

extension LabsView.Chart: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "anchor": anchor
        case "analysis": analysis
        case "unit": unit.isEmpty ? nil : unit
        case "description": description
        case "descriptionID": descriptionID
        case "drawing": drawing
        case "otherUnits": otherUnits
        case "rows": rows
        case "allLink": allLink
        default: nil
        }
    }
}

extension LabsView.Drawing: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "width": Self.width
        case "height": Self.height
        case "left": Self.left
        case "right": Self.right
        case "top": Self.top
        case "bottom": Self.bottom
        case "labelX": Self.left - 6
        case "tickEnd": Self.left - 2
        case "ticks": ticks.map { ["y": $0.y, "textY": $0.y + 4, "text": $0.text] as [String: Any] }
        case "dayY": Self.bottom + 22
        case "middle": (Self.left + Self.right) / 2
        case "band": band.map { ["x": $0.x, "y": $0.y, "width": $0.width, "height": $0.height] as [String: Int] }
        case "line": line
        case "points": points
        case "firstDay": firstDay
        case "lastDay": lastDay
        case "singleDay": singleDay
        default: nil
        }
    }
}

extension LabsView.Point: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "x": x
        case "y": y
        case "href": href
        case "label": label
        case "triangle": triangle
        case "shapeClass": shapeClass
        default: nil
        }
    }
}

extension LabsView.Row: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "day": day
        case "value": value
        case "unit": unit
        case "range": range
        case "flag": flag
        case "flagLabel": flagLabel
        case "doubtful": doubtful
        case "converted": converted
        case "href": href
        case "letterTitle": letterTitle
        case "id": id
        default: nil
        }
    }
}
