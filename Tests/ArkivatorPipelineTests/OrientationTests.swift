import ArkivatorImaging
import Foundation
import TestSupport
import Testing

/// A page scanned sideways or upside down is turned upright by `ingest`.
@Suite(.serialized) struct OrientationTests {
    @Test(arguments: [1, 2, 3])
    func ingestTurnsPagesUpright(turns: Int) throws {
        try withTemporaryDirectory { dir in
            let image = try #require(try Image.decodePages(Fixtures.bytes("clean.png")).first)
            let file = dir.appendingPathComponent("snudd.png")
            try Data(try image.rotated(quarterTurns: turns).pngData()).write(to: file)
            let output = try CLI.run(["ingest", "--json", "--library", dir.path, file.path])
            let record = try #require(try CLI.records(output).first)
            let reports = try #require(record["pageReports"] as? [[String: Any]])
            let cleanup = try #require(reports.first?["cleanup"] as? [String: Any])
            #expect(cleanup["quarterTurns"] as? Int == (4 - turns) % 4)
            let text = try #require(record["text"] as? String)
            #expect(characterErrorRate(truth: try Fixtures.text("clean.txt"), predicted: text) < 0.06)
        }
    }
}
