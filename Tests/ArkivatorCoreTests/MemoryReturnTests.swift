import ArkivatorCore
import Foundation
import Testing

/// Large pages read side by side each get their result, whatever order they end in, and memory
/// taken while one is read is usable afterwards.
@Suite struct MemoryReturnTests {
    @Test func largePagesSideBySideEachGetTheirResult() async {
        let results = await withTaskGroup(of: Int.self) { group in
            for page in 0..<4 {
                group.addTask {
                    MemoryReturn.whileReadingLargePage {
                        // A page-sized block, made and freed while the limits are lowered.
                        var block = [UInt8](repeating: UInt8(page), count: 8 << 20)
                        block[block.count - 1] = UInt8(page)
                        return Int(block[0]) + Int(block[block.count - 1])
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.sorted() == [0, 2, 4, 6])
        let after = [UInt8](repeating: 7, count: 4 << 20)
        #expect(after.allSatisfy { $0 == 7 })
    }
}
