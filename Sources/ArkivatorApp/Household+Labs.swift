import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorPipeline
import Foundation

/// One laboratory value of a household letter: what the letter prints (analysis, value, unit,
/// reference range, flag), whether a number in its row is in doubt, the day the sample was taken
/// (else the letter's date) and the letter it stands in.
public struct LabValue: Sendable, Codable, Equatable {
    public var person: String?
    /// `YYYY-MM-DD`: the sampling day the letter prints, else the letter's date.
    public var sampled: String
    public var analysis: String
    /// As printed: «5,2», «< 5».
    public var value: String
    public var unit: String?
    public var range: String?
    /// «H», «L» or nil.
    public var flag: String?
    /// A number in the row may be misread, and no person has confirmed it: to be checked against
    /// the page before it is trusted.
    public var doubtful: Bool
    /// The letter's short id and title.
    public var letter: String
    public var title: String

    public init(_ reading: LabReading) {
        person = reading.member ?? reading.person
        sampled = reading.day
        analysis = reading.entry.analysis
        value = reading.entry.value
        unit = reading.entry.unit
        range = reading.entry.range
        flag = reading.entry.flag
        doubtful = reading.entry.inDoubt
        letter = reading.letter
        title = reading.title
    }
}

extension Household {
    /// The laboratory values of the lab results and discharge letters (tables in them), as the
    /// library keeps them from each letter's text as it stands now (a corrected text gives the
    /// corrected values): only `person`'s (part of the name, as `list --person`), only
    /// `analysis` (its name as the rules know it, «HbA1c», or as printed, any case); by
    /// analysis, then sampling day.
    public func labs(person: String? = nil, analysis: String? = nil) throws -> [LabValue] {
        try labReadings(person: person, analysis: analysis).map(LabValue.init)
    }

    /// The same values with their letters, as the library keeps them.
    public func labReadings(person: String? = nil, analysis: String? = nil) throws -> [LabReading] {
        try fillLabs()
        return try library.documents.labReadings(DocumentFilter(person: person), analysis: analysis)
    }

    /// The values of the given letters (row numbers) alone: what a share of them may show.
    public func labReadings(of letters: [Int]) throws -> [LabReading] {
        try fillLabs()
        return try library.documents.labReadings(rows: letters)
    }

    /// Reads a letter's lab values again from its text as it is now, keeping the boxes on the
    /// page and the confirmations the old values had (``LabEntry/carried(_:from:typedByPerson:)``).
    /// `typedByPerson`: the text is a person's correction. `dropBoxesOn`: a page read again, whose
    /// old boxes no longer fit.
    public func rereadLabs(_ id: String, typedByPerson: Bool, dropBoxesOn page: Int? = nil) throws {
        let document = try library.documents.document(id)
        try library.documents.replaceLabs([(document.sha256, try labs(of: document, typedByPerson: typedByPerson, dropBoxesOn: page))])
    }

    /// A letter's values read from its text, with what its stored ones knew.
    func labs(of document: LibraryDocument, typedByPerson: Bool, dropBoxesOn page: Int? = nil) throws -> [LabEntry] {
        var old = try library.documents.labs(of: document.sha256)
        if let page {
            for index in old.indices where old[index].page == page {
                old[index].page = nil
                old[index].box = nil
            }
        }
        return LabEntry.carried(LabEntries.entries(in: document.text), from: old, typedByPerson: typedByPerson)
    }

    /// Reads the lab values of letters filed without them (before values were kept, or imported),
    /// or read by older rules (``LabTable/rulesVersion``), from their text, at most `limit` letters, a few hundred to a transaction; returns how many
    /// were read. `serve` reads them in the background at start, the pages and commands that
    /// show values read what is left first.
    @discardableResult
    public func fillLabs(limit: Int = .max) throws -> Int {
        // Values read by older rules wait to be read again.
        try library.documents.rereadLabsIfRulesChanged(version: LabTable.rulesVersion)
        var count = 0
        while count < limit {
            let waiting = try library.documents.lettersWithLabsToRead(limit: min(200, limit - count))
            guard !waiting.isEmpty else { break }
            var batch: [(String, [LabEntry])] = []
            for id in waiting {
                let document = try library.documents.document(id)
                batch.append((document.sha256, try labs(of: document, typedByPerson: false)))
            }
            try library.documents.replaceLabs(batch)
            count += waiting.count
        }
        return count
    }
}
