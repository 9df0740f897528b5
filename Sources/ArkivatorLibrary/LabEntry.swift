import ArkivatorCore
import Foundation

/// One value of a lab table a letter prints, as the library keeps it (`lab_values`, migration
/// 26): read from the letter's text when it is filed, and again whenever the text changes (a
/// correction gives the corrected value). The value stays as printed («5,2», «< 5»); nothing is
/// converted or rounded here.
public struct LabEntry: Sendable, Equatable, Codable {
    /// The row in `lab_values` (0 before it is stored).
    public var id: Int
    /// The analysis under one name («HbA1c» for «Glykert hemoglobin»).
    public var analysis: String
    /// The analysis as the letter prints it.
    public var printed: String
    /// The value as printed, without its flag: «5,2», «< 5».
    public var value: String
    public var unit: String?
    /// The reference range as printed: «2,5–5,0», «< 5».
    public var range: String?
    /// «H», «L» or nil.
    public var flag: String?
    /// A number in the row may be misread (a rule doubted it, or OCR was unsure of a word in it).
    public var doubtful: Bool
    /// A person compared the value with the page and said it is right (or corrected it).
    public var confirmed: Bool
    /// `YYYY-MM-DD`: the day the sample was taken, where the letter prints it.
    public var sampled: String?
    /// The page the value stands on (1…) and its box there (x, y, width, height in the page
    /// image's pixels); nil when not known (a letter filed before boxes were kept).
    public var page: Int?
    public var box: [Int]?
    /// Where the value stands in the document's text, in Unicode scalars.
    public var start: Int
    public var length: Int

    public init(id: Int = 0, analysis: String, printed: String, value: String, unit: String?, range: String?, flag: String?,
                doubtful: Bool, confirmed: Bool = false, sampled: String?, page: Int? = nil, box: [Int]? = nil,
                start: Int, length: Int) {
        self.id = id
        self.analysis = analysis
        self.printed = printed
        self.value = value
        self.unit = unit
        self.range = range
        self.flag = flag
        self.doubtful = doubtful
        self.confirmed = confirmed
        self.sampled = sampled
        self.page = page
        self.box = box
        self.start = start
        self.length = length
    }

    /// Whether the value is to be checked against the page before it is trusted: in doubt, and
    /// no person has confirmed it.
    public var inDoubt: Bool { doubtful && !confirmed }

    /// Whether the box is one a page can show.
    public var hasBox: Bool {
        guard let box, page != nil else { return false }
        return box.count == 4 && box[2] > 0 && box[3] > 0 && box[0] >= 0 && box[1] >= 0
    }

    /// The entries read anew from a changed text, keeping what the old ones knew that the text
    /// does not say: the box on the page of the same analysis's value (the n-th of that name
    /// keeps the n-th's box), and a person's confirmation where the value is still the same.
    /// `typedByPerson`: the text is a person's correction, so a value it changed (or added) is
    /// theirs, checked against the paper: confirmed.
    public static func carried(_ new: [LabEntry], from old: [LabEntry], typedByPerson: Bool) -> [LabEntry] {
        var seen: [String: Int] = [:]
        return new.map { entry in
            var kept = entry
            let n = seen[entry.analysis, default: 0]
            seen[entry.analysis] = n + 1
            let before = old.filter { $0.analysis == entry.analysis }
            guard n < before.count else {
                kept.confirmed = typedByPerson
                return kept
            }
            let match = before[n]
            if kept.box == nil, match.hasBox {
                kept.page = match.page
                kept.box = match.box
            }
            let same = match.value == entry.value && match.unit == entry.unit
            kept.confirmed = same ? match.confirmed : typedByPerson
            return kept
        }
    }
}

/// A lab value with the letter it stands in, for a person's page, the export and the share.
public struct LabReading: Sendable, Equatable, Codable {
    public var entry: LabEntry
    /// The letter's short id, title, date and type, and the household member it is filed to.
    public var letter: String
    public var title: String
    public var documentDate: String
    public var docType: DocumentType
    public var member: String?
    public var person: String?

    /// The day the value is of: the sampling day, else the letter's date.
    public var day: String { entry.sampled ?? documentDate }

    public init(entry: LabEntry, letter: String, title: String, documentDate: String, docType: DocumentType,
                member: String?, person: String?) {
        self.entry = entry
        self.letter = letter
        self.title = title
        self.documentDate = documentDate
        self.docType = docType
        self.member = member
        self.person = person
    }
}
