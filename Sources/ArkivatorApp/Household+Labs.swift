import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
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
    /// A number in the row may be misread: to be checked against the page before it is trusted.
    public var doubtful: Bool
    /// The letter's short id and title.
    public var letter: String
    public var title: String
}

extension Household {
    /// The laboratory values of the lab results and discharge letters (tables in them), read
    /// from each letter's text as it stands now (a corrected text gives the corrected values):
    /// only `person`'s (part of the name, as `list --person`), only `analysis` (its name as the
    /// rules know it, «HbA1c», or as printed, any case); by analysis, then sampling day.
    public func labs(person: String? = nil, analysis: String? = nil) throws -> [LabValue] {
        var values: [LabValue] = []
        for type in [DocumentType.labSvar, .epikrise] {
            let filter = DocumentFilter(person: person, type: type)
            for summary in try library.documents.list(filter, limit: 100_000) {
                let document = try library.documents.document(summary.id)
                let rows = LabTable.rows(in: document.text)
                guard !rows.isEmpty else { continue }
                let sampled = LabSampling.date(in: document.text)?.iso ?? document.documentDate
                for row in rows {
                    if let analysis, row.analysis.caseInsensitiveCompare(analysis) != .orderedSame,
                       row.printedAnalysis.caseInsensitiveCompare(analysis) != .orderedSame { continue }
                    values.append(LabValue(person: document.familyMember ?? document.person, sampled: sampled, analysis: row.analysis,
                                           value: row.value, unit: row.unit, range: row.range, flag: row.flag, doubtful: row.doubtful,
                                           letter: document.shortID, title: document.title))
                }
            }
        }
        return values.sorted { ($0.analysis.lowercased(), $0.sampled, $0.letter) < ($1.analysis.lowercased(), $1.sampled, $1.letter) }
    }
}
