import ArkivatorIntake
import ArkivatorPipeline
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

@Suite struct PipelineEdgeTests {
    /// A document with no page files (the public API allows it) is reported, not waited for.
    @Test func aDocumentWithoutPagesIsReportedAndTheRunEnds() throws {
        let pipeline = try Pipeline(options: .init(jobs: 2, classifier: nil))
        let records = NIOLockedValueBox<[DocumentRecord]>([])
        pipeline.run([DocumentSource(name: "tom", pages: []), DocumentSource(name: "ren", pages: [Fixtures.url("clean.png")])]) { record in
            records.withLockedValue { $0.append(record) }
        }
        let got = records.withLockedValue { $0 }
        #expect(got.count == 2)
        #expect(got.first?.failure?.errorCode == "noPages")
        #expect(got.last?.failure == nil && got.last?.noText == false)
    }
}
