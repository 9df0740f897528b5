import ArkivatorIntake
import ArkivatorPipeline
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// Small pictures of one typed line (a screenshot's line, a cropped label, a receipt's snippet),
/// made by `scripts/fixtures/make_oneline.py --test-fixtures`: the line of 487 × 126 pixels in
/// every format the pipeline reads, with and without a resolution tag, and a lab value's line at
/// 70 and 96 px/inch. Taken as A4 pages they would be thumbnails; their letters tell their size.
@Suite struct OneLineImageTests {
    private struct Picture: Decodable {
        var name: String
        var file: String
    }

    private func pictures() throws -> [Picture] {
        try JSONDecoder().decode([Picture].self, from: Data(contentsOf: Fixtures.url("oneline/manifest.json")))
    }

    /// Every picture reads as its line, word for word: never as "no text", and no letter taken
    /// for a pen stroke.
    @Test func everyFormatAndSizeReadsTheLineExactly() throws {
        let pictures = try pictures()
        #expect(pictures.count >= 10)
        let pipeline = try Pipeline(options: .init(jobs: 2, classifier: nil))
        let records = NIOLockedValueBox<[String: DocumentRecord]>([:])
        pipeline.run(pictures.map { DocumentSource(name: $0.name, pages: [Fixtures.url("oneline/" + $0.file)]) }) { record in
            let name = record.sources.first.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent } ?? ""
            records.withLockedValue { $0[name] = record }
        }
        let got = records.withLockedValue { $0 }
        for picture in pictures {
            let record = try #require(got[picture.name], "\(picture.name) was not read")
            let truth = try Fixtures.text("oneline/\(picture.name).txt").trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(record.failure == nil, "\(picture.name): \(String(describing: record.failure))")
            #expect(!record.noText, "\(picture.name) read as no text: \(record.pageReports)")
            if picture.name == "lab-070" {
                // Serif type 11 pixels high (70 px/inch): plain OCR reads "Totalkalesteol 52 mel.
                // (19-51)"; the name and every number must be read exactly, the unit may not.
                for part in ["Totalkolesterol 5,2", "(2,9-6,1)"] {
                    #expect(normalised(record.text).contains(part), "\(picture.name): «\(record.text)»")
                }
            } else {
                #expect(normalised(record.text) == normalised(truth), "\(picture.name): «\(record.text)»")
            }
        }
    }

    /// The same line, spaced and with dashes as a reader sees them: OCR's en dash and hyphen,
    /// line breaks and double spaces count alike.
    private func normalised(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{2013}", with: "-").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
