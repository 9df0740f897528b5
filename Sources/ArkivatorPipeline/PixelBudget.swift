import Foundation

/// The pixels the workers may have decoded at one time, shared by them: a semaphore weighted by
/// a page's pixels. A worker takes a page's pixels before it decodes the page and gives them back
/// once the page is read; a page larger than the whole budget takes all of it, so it is read
/// alone while the other workers wait. Ordinary pages (a phone photo, an A4 scan at 300 DPI)
/// never wait for one another; two pages at the 60-megapixel limit are never decoded at once.
final class PixelBudget: @unchecked Sendable {
    /// The pixels that may be decoded at once.
    let capacity: Int
    private var used = 0
    private let condition = NSCondition()

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The default for `jobs` workers: 40 megapixels (two pages of 20, or one page at the limit
    /// alone), and 12 more for each worker past two, so more cores still read ordinary pages side
    /// by side.
    static func capacity(jobs: Int) -> Int {
        max(40_000_000, jobs * 12_000_000)
    }

    /// Waits until `pixels` (at most the whole budget) fit beside what the other workers hold,
    /// takes them, and returns how many were taken (to be given back with ``give(_:)``).
    func take(_ pixels: Int) -> Int {
        let amount = min(max(0, pixels), capacity)
        condition.lock()
        while used + amount > capacity { condition.wait() }
        used += amount
        condition.unlock()
        return amount
    }

    /// Gives back pixels ``take(_:)`` took, and wakes the workers waiting for room.
    func give(_ amount: Int) {
        guard amount > 0 else { return }
        condition.lock()
        used -= amount
        condition.broadcast()
        condition.unlock()
    }
}
