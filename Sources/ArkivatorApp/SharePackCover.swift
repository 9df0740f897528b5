import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorPipeline
import Foundation

/// The share pack's first pages, drawn as printed text on A4: whom the letters concern (name and
/// birth date, never the number) and an index of the letters (date, type, sender, title, the
/// page each starts on), continued on further pages when it is long. In Bokmål, for a Norwegian
/// doctor, with a line in English.
struct SharePackCover {
    /// Someone the letters concern.
    struct Person: Equatable {
        var name: String?
        /// `YYYY-MM-DD`, if known.
        var birthDate: String?
    }

    /// One letter in the index.
    struct Entry {
        var date: String
        var type: String
        var sender: String
        var title: String
        var person: String?
        /// The letter's pages in the pack.
        var pages: Int

        init(_ document: LibraryDocument, pages: Int) {
            let masked = document.masked
            date = SharePackCover.shown(date: masked.documentDate)
            type = masked.docType.titleWord
            sender = masked.institution ?? "–"
            // The title starts with the date, which has a column of its own.
            let title = masked.title
            self.title = title.hasPrefix(masked.documentDate + " ") ? String(title.dropFirst(masked.documentDate.count + 1)) : title
            person = ShownPerson.name(familyMember: masked.familyMember, person: masked.person)
            self.pages = pages
        }
    }

    /// The PDF's title.
    static let title = "Brev fra helsetjenesten"

    var persons: [Person]
    var entries: [Entry]
    /// `YYYY-MM-DD`.
    var made: String
    /// The letters' lab values, an analysis a line (``LabSummary``): a page of their own after
    /// the index, before the letters.
    var labs: [LabSummary.Line] = []

    // A4 at 300 DPI, 2 cm margins; sizes in pixels (a point is 300/72 pixels).
    static let width = 2480, height = 3508, margin = 236
    static let titleSize = 75, bodySize = 46, tableSize = 40
    /// The index's columns: where each starts, from the left margin, and how wide it is.
    static let columns = (date: (0, 250), type: (250, 260), sender: (510, 520), title: (1050, 820), page: (1900, 108))

    /// The cover and index pages.
    func pages() -> [SearchablePDF.Page] {
        var pages: [[SearchablePDF.Printed]] = []
        var runs: [SearchablePDF.Printed] = []
        var y = Self.margin
        func text(_ text: String, at x: Int = 0, size: Int = Self.bodySize, bold: Bool = false) {
            runs.append(SearchablePDF.Printed(text: text, x: Self.margin + x, y: y, size: size, bold: bold))
        }
        func newPage() {
            pages.append(runs)
            runs = []
            y = Self.margin
        }

        y += Self.titleSize
        text(Self.title, size: Self.titleSize, bold: true)
        y += Self.bodySize * 3 / 2
        let pageCount = entries.reduce(0) { $0 + $1.pages }
        text("Delt fra Arkivator \(Self.shown(date: made)): \(entries.count) brev, \(pageCount) \(pageCount == 1 ? "side" : "sider").")
        y += Self.bodySize * 5 / 2
        let named = persons.filter { $0.name != nil }
        if persons.count > 1 {
            text("Brevene gjelder flere personer:", bold: true)
            for person in persons {
                y += Self.bodySize * 3 / 2
                text(Self.line(person), at: 40)
            }
        } else {
            text("Gjelder:", bold: true)
            text(named.first.map(Self.line) ?? ShownPerson.unknown.norwegian, at: 270)
        }
        y += Self.bodySize * 5 / 2
        for line in Self.wrap("Fødselsnummer er skjult: dekket med svarte felt på sidene og fjernet fra teksten. "
                              + "(Letters from the health services; national ID numbers are covered on the pages and removed from the text.)",
                              width: Self.width - 2 * Self.margin, size: Self.tableSize) {
            text(line, size: Self.tableSize)
            y += Self.tableSize * 4 / 3
        }
        y += Self.bodySize * 2

        // The index: rows laid out first, then the page each letter starts on, once the number of
        // cover pages is known.
        let lineHeight = Self.tableSize * 5 / 4
        let several = persons.count > 1
        let rows: [[String]] = entries.map { entry in
            let title = several ? "\(entry.person ?? ShownPerson.unknown.norwegian): \(entry.title)" : entry.title
            return [entry.date, entry.type, entry.sender, title]
        }
        let wrapped = rows.map { row in
            [Self.wrap(row[0], width: Self.columns.date.1, size: Self.tableSize, maxLines: Self.cellLines),
             Self.wrap(row[1], width: Self.columns.type.1, size: Self.tableSize, maxLines: Self.cellLines),
             Self.wrap(row[2], width: Self.columns.sender.1, size: Self.tableSize, maxLines: Self.cellLines),
             Self.wrap(row[3], width: Self.columns.title.1, size: Self.tableSize, maxLines: Self.cellLines)]
        }
        func header(_ continued: Bool) {
            text(continued ? "Innhold (fortsatt)" : "Innhold", bold: true)
            y += Self.bodySize * 3 / 2
            for (name, column) in [("Dato", Self.columns.date), ("Type", Self.columns.type), ("Avsender", Self.columns.sender),
                                   ("Tittel", Self.columns.title), ("Side", Self.columns.page)] {
                text(name, at: column.0, size: Self.tableSize, bold: true)
            }
            y += lineHeight * 3 / 2
        }
        y += Self.bodySize
        header(false)
        // Where each row stands: (cover page, y); the start pages are filled in after.
        var placed: [(page: Int, y: Int)] = []
        for cells in wrapped {
            let height = max(1, cells.map(\.count).max() ?? 1) * lineHeight
            if y + height > Self.height - Self.margin {
                newPage()
                y += Self.bodySize
                header(true)
            }
            placed.append((pages.count, y))
            for (cell, column) in zip(cells, [Self.columns.date, Self.columns.type, Self.columns.sender, Self.columns.title]) {
                for (k, line) in cell.enumerated() {
                    runs.append(SearchablePDF.Printed(text: line, x: Self.margin + column.0, y: y + k * lineHeight, size: Self.tableSize))
                }
            }
            y += height + lineHeight / 2
        }
        newPage()
        if !labs.isEmpty { labPages(&pages) }
        var start = pages.count + 1
        for (entry, place) in zip(entries, placed) {
            pages[place.page].append(SearchablePDF.Printed(text: "\(start)", x: Self.margin + Self.columns.page.0, y: place.y,
                                                           size: Self.tableSize))
            start += entry.pages
        }
        return pages.map { SearchablePDF.Page(jpeg: [], width: Self.width, height: Self.height, dpi: 300, lines: [], printed: $0) }
    }

    /// The lab values' columns, as the index's.
    static let labColumns = (analysis: (0, 430), value: (430, 420), day: (850, 240), range: (1090, 300), trend: (1390, 618))

    /// «Prøvesvar i brevene»: per analysis the latest value, its day, range and the change since
    /// the first value; a value that may be misread says so. Continued on further pages.
    func labPages(_ pages: inout [[SearchablePDF.Printed]]) {
        var runs: [SearchablePDF.Printed] = []
        var y = Self.margin
        func text(_ text: String, at x: Int = 0, size: Int = Self.bodySize, bold: Bool = false) {
            runs.append(SearchablePDF.Printed(text: text, x: Self.margin + x, y: y, size: size, bold: bold))
        }
        let lineHeight = Self.tableSize * 5 / 4
        func header(_ continued: Bool) {
            y += Self.bodySize
            text(continued ? "Prøvesvar i brevene (fortsatt)" : "Prøvesvar i brevene", bold: true)
            y += Self.bodySize * 3 / 2
            if !continued {
                for line in Self.wrap("Siste verdi av hver analyse i brevene, med utviklingen siden første verdi. Verdiene er lest av "
                                      + "maskinen (OCR) fra brevene som følger: «usikker» betyr at et tall kan være feillest og må "
                                      + "sjekkes mot brevet. (Lab values machine-read from the letters that follow.)",
                                      width: Self.width - 2 * Self.margin, size: Self.tableSize) {
                    text(line, size: Self.tableSize)
                    y += Self.tableSize * 4 / 3
                }
                y += Self.tableSize
            }
            for (name, column) in [("Analyse", Self.labColumns.analysis), ("Siste verdi", Self.labColumns.value),
                                   ("Prøvedato", Self.labColumns.day), ("Referanse", Self.labColumns.range),
                                   ("Utvikling", Self.labColumns.trend)] {
                text(name, at: column.0, size: Self.tableSize, bold: true)
            }
            y += lineHeight * 3 / 2
        }
        header(false)
        for line in labs {
            var value = line.value + (line.unit.map { " " + $0 } ?? "")
            if let flag = line.flag { value += " " + flag }
            if line.doubtful { value += " (usikker)" }
            var trend = line.trend(.norwegian)
            if line.doubtfulCount > 0 { trend += "; \(line.doubtfulCount) av \(line.count) kan være feillest" }
            let cells = [(line.analysis, Self.labColumns.analysis), (value, Self.labColumns.value),
                         (Self.shown(date: line.day), Self.labColumns.day), (line.range ?? "–", Self.labColumns.range),
                         (trend, Self.labColumns.trend)].map { (Self.wrap(Redaction.redact($0.0), width: $0.1.1, size: Self.tableSize,
                                                                           maxLines: Self.cellLines), $0.1.0) }
            let height = max(1, cells.map(\.0.count).max() ?? 1) * lineHeight
            if y + height > Self.height - Self.margin {
                pages.append(runs)
                runs = []
                y = Self.margin
                header(true)
            }
            for (cell, x) in cells {
                for (k, piece) in cell.enumerated() {
                    runs.append(SearchablePDF.Printed(text: piece, x: Self.margin + x, y: y + k * lineHeight, size: Self.tableSize))
                }
            }
            y += height + lineHeight / 2
        }
        pages.append(runs)
    }

    /// `Kari Nordmann, født 26.01.1987`.
    static func line(_ person: Person) -> String {
        let name = person.name ?? ShownPerson.unknown.norwegian
        return person.birthDate.map { "\(name), født \(shown(date: $0))" } ?? name
    }

    /// `DD.MM.YYYY` for `YYYY-MM-DD`; anything else as it is.
    static func shown(date: String) -> String {
        guard let (year, month, day) = CalendarDate.isoComponents(date) else { return date }
        return String(format: "%02d.%02d.%04d", day, month, year)
    }

    /// The most lines one cell of the index takes (a title of about 200 characters); a longer
    /// value is cut there and ends in «…».
    static let cellLines = 6

    /// `text` broken into lines no wider than `width` pixels at `size` (Helvetica's advances, about);
    /// a word wider than a line is cut. At most `maxLines` lines: the last of them ends in «…» when
    /// the text went on. Each character is measured once, and none past the last line: the time
    /// grows with the length of what is shown, never faster.
    static func wrap(_ text: String, width: Int, size: Int, maxLines: Int = .max) -> [String] {
        let limit = Double(width)
        let space = advance(" ", size: size)
        var lines: [String] = []
        var line = "", lineWidth = 0.0
        func endLine() {
            lines.append(line)
            line = ""
            lineWidth = 0
        }
        for word in text.split(separator: " ") {
            guard lines.count <= maxLines else { break }
            let wordWidth = word.reduce(0.0) { $0 + advance($1, size: size) }
            if line.isEmpty, wordWidth <= limit {
                (line, lineWidth) = (String(word), wordWidth)
                continue
            }
            if !line.isEmpty, lineWidth + space + wordWidth <= limit {
                line += " " + word
                lineWidth += space + wordWidth
                continue
            }
            if !line.isEmpty { endLine() }
            guard wordWidth > limit else {
                (line, lineWidth) = (String(word), wordWidth)
                continue
            }
            // Wider than a line: cut where each line is full (at least one character a line).
            for character in word {
                guard lines.count <= maxLines else { break }
                let characterWidth = advance(character, size: size)
                if !line.isEmpty, lineWidth + characterWidth > limit { endLine() }
                line.append(character)
                lineWidth += characterWidth
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        guard lines.count > maxLines, maxLines > 0 else { return lines }
        // Cut: the last line kept ends in «…», within the width.
        var last = lines[maxLines - 1]
        let ellipsis = advance("…", size: size)
        var lastWidth = last.reduce(0.0) { $0 + advance($1, size: size) }
        while !last.isEmpty, lastWidth + ellipsis > limit {
            lastWidth -= advance(last.removeLast(), size: size)
        }
        return Array(lines.prefix(maxLines - 1)) + [last.trimmingCharacters(in: .whitespaces) + "…"]
    }

    /// The width of `text` in pixels at `size`, from Helvetica's advances (rounded into classes).
    static func advance(_ text: String, size: Int) -> Double {
        text.reduce(0.0) { $0 + advance($1, size: size) }
    }

    /// The width of one character in pixels at `size`.
    static func advance(_ c: Character, size: Int) -> Double {
        let em: Double
        switch c {
        case "i", "j", "l", "'", "|": em = 0.23
        case " ", ".", ",", ":", ";", "!", "f", "t", "I", "/", "(", ")", "[", "]", "-": em = 0.29
        case "r": em = 0.34
        case "m", "M", "W", "æ", "Æ", "Œ", "œ": em = 0.9
        case "w": em = 0.73
        case "–", "…": em = 0.56
        default: em = c.isUppercase ? 0.7 : 0.56
        }
        return em * Double(size) * 1.05
    }
}
