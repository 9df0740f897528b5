@testable import ArkivatorPipeline
import Foundation
import NIOConcurrencyHelpers
import Testing

/// The workers' shared budget of decoded pixels: pages that fit side by side go together, a page
/// over the budget waits until it has the budget alone.
@Suite struct PixelBudgetTests {
    @Test func aPageAtTheLimitIsNeverDecodedBesideAnother() async throws {
        let budget = PixelBudget(capacity: PixelBudget.capacity(jobs: 2))
        #expect(budget.capacity == 40_000_000)
        // Two ordinary pages fit at once.
        let first = budget.take(12_000_000), second = budget.take(12_000_000)
        #expect(first + second == 24_000_000)
        // A page at the 60-megapixel limit takes the whole budget: it waits for both.
        let large = NIOLockedValueBox<Int?>(nil)
        let thread = Thread {
            let taken = budget.take(59_500_000)
            large.withLockedValue { $0 = taken }
        }
        thread.start()
        try await Task.sleep(for: .milliseconds(200))
        #expect(large.withLockedValue { $0 } == nil, "the large page went ahead while two were being read")
        budget.give(first)
        try await Task.sleep(for: .milliseconds(100))
        #expect(large.withLockedValue { $0 } == nil)
        budget.give(second)
        var waited = 0
        while large.withLockedValue({ $0 }) == nil, waited < 100 {
            try await Task.sleep(for: .milliseconds(20))
            waited += 1
        }
        #expect(large.withLockedValue { $0 } == budget.capacity)
        // While it is read, another page, however small, waits.
        let small = NIOLockedValueBox<Int?>(nil)
        Thread {
            let taken = budget.take(1_000_000)
            small.withLockedValue { $0 = taken }
        }.start()
        try await Task.sleep(for: .milliseconds(200))
        #expect(small.withLockedValue { $0 } == nil)
        budget.give(budget.capacity)
        waited = 0
        while small.withLockedValue({ $0 }) == nil, waited < 100 {
            try await Task.sleep(for: .milliseconds(20))
            waited += 1
        }
        #expect(small.withLockedValue { $0 } == 1_000_000)
        // More workers read more ordinary pages side by side.
        #expect(PixelBudget.capacity(jobs: 8) == 96_000_000)
    }
}
