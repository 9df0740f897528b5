import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorOCR

/// The lab values a letter's text holds, as the library keeps them (``LabEntry``): the rows
/// ``LabTable`` reads, each with the day the sample was taken (``LabSampling``), in doubt where a
/// rule doubted a number in it (``LabPlausibility``; a number OCR alone was unsure of is marked
/// «Usikkert tall» in the letter, as every number is), and with the value's box on its page
/// where the reading's words are at hand.
package enum LabEntries {
    /// - Parameters:
    ///   - rows: the rows already read (the classifier's); nil reads them from `text`.
    ///   - pages: the pages' readings, for the boxes; nil when not at hand (a text correction).
    package static func entries(in text: String, rows: [LabRow]? = nil, pages: [OCRPage]? = nil) -> [LabEntry] {
        // A row whose value was not read is no reading: it stays in the letter's doubts alone.
        let rows = (rows ?? LabTable.rows(in: text)).filter { !$0.value.isEmpty }
        guard !rows.isEmpty else { return [] }
        let sampled = LabSampling.date(in: text)?.iso
        return rows.map { row in
            var entry = LabEntry(analysis: row.analysis, printed: row.printedAnalysis, value: row.value, unit: row.unit,
                                 range: row.range, flag: row.flag, doubtful: row.doubtful, sampled: sampled,
                                 start: row.valueStart, length: row.valueLength)
            if let pages, let place = NumberMarks.place(start: row.valueStart, length: row.valueLength, pages: pages) {
                entry.page = place.page
                entry.box = place.box
            }
            return entry
        }
    }
}

/// A lab row as `ingest --json` gives it: the row's fields as ``LabRow`` has them, and the day
/// the sample was taken.
struct LabRowOutput: Encodable {
    let row: LabRow
    let sampled: String?

    private enum Keys: String, CodingKey {
        case analysis, printedAnalysis, value, unit, range, flag, doubtful, doubt, sampled, line, start, length
        case valueStart, valueLength, rangeStart, rangeLength, unitStart, unitLength
    }

    static func rows(_ rows: [LabRow], text: String) -> [LabRowOutput] {
        let sampled = rows.isEmpty ? nil : LabSampling.date(in: text)?.iso
        return rows.map { LabRowOutput(row: $0, sampled: sampled) }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(row.analysis, forKey: .analysis)
        try c.encode(row.printedAnalysis, forKey: .printedAnalysis)
        try c.encode(row.value, forKey: .value)
        try c.encode(row.unit, forKey: .unit)
        try c.encode(row.range, forKey: .range)
        try c.encode(row.flag, forKey: .flag)
        try c.encode(row.doubtful, forKey: .doubtful)
        try c.encode(row.doubt, forKey: .doubt)
        try c.encode(sampled, forKey: .sampled)
        try c.encode(row.line, forKey: .line)
        try c.encode(row.start, forKey: .start)
        try c.encode(row.length, forKey: .length)
        try c.encode(row.valueStart, forKey: .valueStart)
        try c.encode(row.valueLength, forKey: .valueLength)
        try c.encodeIfPresent(row.rangeStart, forKey: .rangeStart)
        try c.encodeIfPresent(row.rangeLength, forKey: .rangeLength)
        try c.encodeIfPresent(row.unitStart, forKey: .unitStart)
        try c.encodeIfPresent(row.unitLength, forKey: .unitLength)
    }
}
