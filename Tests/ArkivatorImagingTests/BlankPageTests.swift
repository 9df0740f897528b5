import ArkivatorCore
import ArkivatorImaging
import Foundation
import TestSupport
import Testing

/// A page with no ink contrast (all black, all white, one even gray, a little noise) is found
/// before cleanup and read as it came, as a blank page: never a library's internal failure.
@Suite struct BlankPageTests {
    static let width = 1240, height = 1754

    @Test(arguments: [(UInt8(0), "dark"), (UInt8(6), "dark"), (UInt8(128), "light"), (UInt8(255), "light")])
    func aPageOfOneGrayIsBlank(level: UInt8, kind: String) throws {
        let page = try Image(gray: [UInt8](repeating: level, count: Self.width * Self.height), width: Self.width, height: Self.height)
        let cleaned = try PageCleaner().clean(page)
        #expect(cleaned.report.blank == kind)
        #expect(cleaned.report.sheet == nil && cleaned.report.skewDegrees == 0)
        #expect(cleaned.gray.width > 0 && cleaned.gray.height > 0)
    }

    /// Noise of a few levels (a photo taken in a pocket) is still no contrast.
    @Test func aDarkNoisyPageIsBlank() throws {
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<(Self.width * Self.height)).map { _ in UInt8.random(in: 0...12, using: &random) }
        let cleaned = try PageCleaner().clean(try Image(gray: bytes, width: Self.width, height: Self.height))
        #expect(cleaned.report.blank == "dark")
    }

    /// One short line of print on an empty page is contrast: the page is cleaned as any other.
    @Test func oneLineOfPrintIsNotBlank() throws {
        var bytes = [UInt8](repeating: 235, count: Self.width * Self.height)
        for y in 800..<830 { for x in 300..<700 where x % 14 < 4 { bytes[y * Self.width + x] = 30 } }
        let cleaned = try PageCleaner().clean(try Image(gray: bytes, width: Self.width, height: Self.height))
        #expect(cleaned.report.blank == nil)
    }

    /// Evening the light of an all-black picture (a PDF's black picture, a page cut to its dark
    /// edge) finds no paper and leaves it black, without failing.
    @Test func anAllBlackPictureIsEvenedWithoutFailing() throws {
        let black = try Image(gray: [UInt8](repeating: 0, count: 400 * 300), width: 400, height: 300)
        let even = try black.evenedLight()
        #expect(try even.grayBytes().allSatisfy { $0 == 0 })
        let tones = try black.toneRange()
        #expect(tones.darkest == 0 && tones.lightest == 0 && tones.mean == 0)
    }
}
