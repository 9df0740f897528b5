import ArgumentParser
import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
import Foundation

extension Arkivator {
    /// Reads one page again from the photo as taken, with the sheet's corners and turn set by hand.
    struct Recrop: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Les en side på nytt med hjørner og dreiing du velger. (Read a page again with corners and a turn you choose.)",
            discussion: """
                Når arket ble beskåret feil (et annet ark ved siden av, en duk med mønster, et hjørne \
                utenfor bildet), oppgi arkets fire hjørner i bildet slik det ble tatt: øverst til venstre, \
                øverst til høyre, nederst til høyre, nederst til venstre, i bildepunkter (x,y). Se hjørnene \
                som ble funnet og bildets størrelse med --show. Siden leses på nytt fra originalen uten \
                egen arkleting; teksten, feltene (unntatt de du har rettet selv), sidebildet, PDF-en, \
                .docx-filen, filnavnene og søkeindeksen følger med i ett steg.

                (When a sheet was cropped wrongly (a second sheet beside it, a patterned cloth, a corner \
                out of the frame), give the sheet's four corners in the photo as taken: top left, top \
                right, bottom right, bottom left, in pixels (x,y). See the corners that were found and \
                the picture's size with --show. The page is read again from the original without its own \
                sheet search; the text, the fields (except those you corrected yourself), the page image, \
                the PDF, the .docx, the file names and the search index follow in one step.)

                Eksempler / examples:
                  arkivator recrop 3fa2b1 --show
                  arkivator recrop 3fa2b1 --page 1 --corners 210,160,2830,190,2870,3900,180,3880
                  arkivator recrop 3fa2b1 --page 2 --turn 90
                  arkivator recrop 3fa2b1 --whole
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Dokumentets id. (The document's id.)", valueName: "ID"))
        var id: String

        @Option(name: .long, help: ArgumentHelp("Siden som skal leses på nytt, fra 1. (The page to read again, from 1.)",
                                                valueName: "N"))
        var page: Int = 1

        @Option(name: .long, help: ArgumentHelp(
            "Arkets hjørner x1,y1,x2,y2,x3,y3,x4,y4 i bildepunkter: øverst til venstre og videre med klokka. (The sheet's corners, top left and on clockwise, in pixels.)",
            valueName: "X1,Y1,…"))
        var corners: String?

        @Option(name: .long, help: ArgumentHelp("Dreiing med klokka: 0, 90, 180 eller 270 grader. (Clockwise turn in degrees.)",
                                                valueName: "GRADER"))
        var turn: Int?

        @Flag(name: .long, help: "Bruk hele bildet, uten beskjæring. (Use the whole picture, uncropped.)")
        var whole = false

        @Flag(name: .long, help: "Vis hjørnene og dreiingen som er lagret for siden, og endre ingenting. (Show the page's stored corners and turn; change nothing.)")
        var show = false

        func validate() throws {
            if let turn, ![0, 90, 180, 270].contains(turn) {
                throw ValidationError(UserMessage(nb: "--turn må være 0, 90, 180 eller 270.", en: "--turn must be 0, 90, 180 or 270.").text())
            }
            if let corners, PageCrop.corners(corners) == nil {
                throw ValidationError(UserMessage(nb: "--corners må være åtte tall: x1,y1,x2,y2,x3,y3,x4,y4.",
                                                  en: "--corners must be eight numbers: x1,y1,x2,y2,x3,y3,x4,y4.").text())
            }
            if whole && corners != nil {
                throw ValidationError(UserMessage(nb: "Velg enten --corners eller --whole.", en: "Choose either --corners or --whole.").text())
            }
            if !show && !whole && corners == nil && turn == nil {
                throw ValidationError(UserMessage(nb: "Oppgi --corners, --turn, --whole eller --show.",
                                                  en: "Give --corners, --turn, --whole or --show.").text())
            }
        }

        func run() throws {
            let household = try LibraryCommand.household(libraryOptions)
            let terminal = Terminal()
            do {
                if show {
                    let origin = try household.pageOrigin(id, page: page)
                    let crop = origin.crop
                    let corners = crop.map { $0.corners.map { "\(Int($0[0].rounded())),\(Int($0[1].rounded()))" }.joined(separator: ",") }
                    terminal.line(UserMessage(
                        nb: "Side \(page) kommer fra «\(origin.original.name)» (side \(origin.originalPage)). Hjørner: \(corners ?? "ikke lagret"); dreiing \((crop?.quarterTurns ?? 0) * 90)°; bildet er \(crop.map { "\($0.width) × \($0.height)" } ?? "ukjent størrelse").",
                        en: "Page \(page) comes from “\(origin.original.name)” (page \(origin.originalPage)). Corners: \(corners ?? "not stored"); turn \((crop?.quarterTurns ?? 0) * 90)°; the picture is \(crop.map { "\($0.width) × \($0.height)" } ?? "of unknown size").").text())
                    return
                }
                let change = Household.Recrop(corners: corners.flatMap(PageCrop.corners), quarterTurns: turn.map { $0 / 90 },
                                              whole: whole)
                let document = try household.recrop(id, page: page, change)
                terminal.line(UserMessage(nb: "Side \(page) er lest på nytt: «\(document.title)» (\(document.shortID)).",
                                          en: "Page \(page) was read again: “\(document.title)” (\(document.shortID)).").text())
            } catch {
                terminal.error(UserMessage(error: error))
                throw ExitCode(1)
            }
        }
    }
}
