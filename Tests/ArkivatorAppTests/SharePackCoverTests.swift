import ArkivatorArchive
import ArkivatorCore
import ArkivatorImaging
import ArkivatorLibrary
@testable import ArkivatorApp
import ArkivatorPipeline
import Testing

/// The share pack's cover and index, drawn as printed text (no OCR here: the pages read again
/// are checked through the command line in `SharePackCLITests`).
@Suite struct SharePackCoverTests {
    static func letter(_ day: Int, person: String?, pages: Int) -> SharePackCover.Entry {
        let date = "2025-03-\(day < 10 ? "0" : "")\(day)"
        var document = LibraryDocument(sha256: String(repeating: "a", count: 64), sourceName: "brev.jpg",
                                       title: "\(date) Epikrise fra ortopedisk avdeling etter innleggelse for brudd i håndleddet",
                                       docType: .epikrise, familyMember: person, institution: "Østre Lia sykehus, Ortopedisk avdeling",
                                       documentDate: date, text: "")
        document.pageCount = pages
        return SharePackCover.Entry(document, pages: pages)
    }

    /// The PDF's text, page by page, as poppler reads it.
    static func texts(_ cover: SharePackCover) throws -> [String] {
        try #require(PDFTextLayer.pageTexts(ofPDF: SearchablePDF(title: SharePackCover.title, pages: cover.pages()).data()))
    }

    @Test func oneLettersPersonIsNamedWithTheBirthDateAndTheIndexGivesItsPage() throws {
        let cover = SharePackCover(persons: [.init(name: "Kari Nordmann", birthDate: "1987-01-26")],
                                   entries: [Self.letter(4, person: "Kari Nordmann", pages: 2), Self.letter(9, person: "Kari Nordmann", pages: 1)],
                                   made: "2026-11-26")
        let texts = try Self.texts(cover)
        #expect(texts.count == 1)
        let text = try #require(texts.first)
        #expect(text.contains("Kari Nordmann, født 26.01.1987"), "\(text)")
        #expect(text.contains("2 brev, 3 sider") && text.contains("26.11.2026"), "\(text)")
        #expect(text.contains("04.03.2025") && text.contains("Epikrise") && text.contains("Østre Lia sykehus"), "\(text)")
        #expect(!text.contains("flere personer"))
        // The first letter starts after the one cover page, the second after its two pages.
        #expect(Self.startPages(cover) == [2, 4])
    }

    /// The numbers in the index's page column, in order.
    static func startPages(_ cover: SharePackCover) -> [Int] {
        cover.pages().flatMap { page in
            page.printed.filter { $0.x == SharePackCover.margin + SharePackCover.columns.page.0 && !$0.bold }
                .sorted { $0.y < $1.y }.compactMap { Int($0.text) }
        }
    }

    @Test func severalPeopleAreSaidAndALongIndexGoesOnAndCountsItsOwnPages() throws {
        let entries = (1...28).map { Self.letter($0, person: $0 % 2 == 0 ? "Kari Nordmann" : "Ola Nordmann", pages: 1) }
        let cover = SharePackCover(persons: [.init(name: "Kari Nordmann", birthDate: "1987-01-26"), .init(name: "Ola Nordmann")],
                                   entries: entries, made: "2026-11-26")
        let texts = try Self.texts(cover)
        #expect(texts.count >= 2, "the index goes on")
        let all = texts.joined(separator: "\n")
        #expect(all.contains("Brevene gjelder flere personer") && all.contains("Ola Nordmann"), "\(all)")
        #expect(texts.dropFirst().allSatisfy { $0.contains("Innhold (fortsatt)") })
        // Every letter has its own page after the cover pages.
        let first = texts.count + 1
        #expect(Self.startPages(cover) == Array(first..<(first + 28)))
        // Nothing is drawn below the bottom margin.
        #expect(cover.pages().allSatisfy { $0.printed.allSatisfy { $0.y <= SharePackCover.height - SharePackCover.margin + SharePackCover.tableSize } })
    }

    @Test func wordsAreWrappedToTheColumn() {
        let lines = SharePackCover.wrap("Østre Lia sykehus, Ortopedisk avdeling, Poliklinikk for håndkirurgi", width: 520, size: 40)
        #expect(lines.count >= 2)
        #expect(lines.allSatisfy { SharePackCover.advance($0, size: 40) <= 520 })
        #expect(lines.joined(separator: " ") == "Østre Lia sykehus, Ortopedisk avdeling, Poliklinikk for håndkirurgi")
        #expect(SharePackCover.wrap("Ortopediskpoliklinikkhåndkirurgiavdelingen", width: 200, size: 40).count >= 2)
    }

    /// A title of 3,000 characters (words, or one word without a space) takes at most
    /// ``SharePackCover/cellLines`` lines of the index, the last ending in «…», each within its
    /// column; a row never runs past the page.
    @Test(arguments: [String(repeating: "Epikrise etter innleggelse ", count: 112), String(repeating: "håndkirurgi", count: 273)])
    func aVeryLongTitleIsCutToTheCellsLines(_ long: String) throws {
        #expect(long.count >= 3_000)
        let lines = SharePackCover.wrap(long, width: SharePackCover.columns.title.1, size: SharePackCover.tableSize,
                                        maxLines: SharePackCover.cellLines)
        #expect(lines.count == SharePackCover.cellLines)
        #expect(try #require(lines.last).hasSuffix("…"))
        #expect(lines.allSatisfy { SharePackCover.advance($0, size: SharePackCover.tableSize) <= Double(SharePackCover.columns.title.1) })
        #expect(lines.joined().count < 400)

        var entry = Self.letter(4, person: "Kari Nordmann", pages: 1)
        entry.title = long
        entry.sender = long
        let cover = SharePackCover(persons: [.init(name: "Kari Nordmann")], entries: Array(repeating: entry, count: 12), made: "2026-11-26")
        let pages = cover.pages()
        #expect(pages.allSatisfy { $0.printed.allSatisfy { $0.y <= SharePackCover.height - SharePackCover.margin + SharePackCover.tableSize } })
        #expect(pages.flatMap(\.printed).allSatisfy { $0.text.count < 200 })
    }
}
