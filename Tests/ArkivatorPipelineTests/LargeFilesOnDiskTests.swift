import ArkivatorCore
import ArkivatorImaging
import ArkivatorIntake
import Foundation
import TestSupport
import Testing

/// A large bitmap or TIFF is left on disk when received: hashed a chunk at a time, its rows read
/// from the file when its pixels are, never held whole; a file changed in between is refused in
/// words.
@Suite struct LargeFilesOnDiskTests {
    private static let width = 3300, height = 3400

    /// Light gray paper growing darker to the right (`pixel` bytes a pixel), with a dark bar a
    /// third of the way down (rows where ``isBar(_:)``): a row of each.
    private func rows(stride: Int, pixel: Int) -> (paper: [UInt8], bar: [UInt8]) {
        var row = [UInt8](repeating: 0, count: stride)
        for x in 0..<Self.width {
            for channel in 0..<pixel { row[pixel * x + channel] = UInt8(250 - x * 60 / Self.width) }
        }
        var bar = row
        for x in 0..<(pixel * Self.width) { bar[x] = 20 }
        return (row, bar)
    }

    private func isBar(_ y: Int) -> Bool { (Self.height / 3..<Self.height / 3 + 40).contains(y) }

    /// An uncompressed little-endian RGB TIFF of one page, 64 rows a strip.
    private func tiff() -> [UInt8] {
        let (width, height, perStrip) = (Self.width, Self.height, 64)
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let strips = (height + perStrip - 1) / perStrip, stride = width * 3
        let (paper, bar) = rows(stride: stride, pixel: 3)
        var pixels: [UInt8] = []
        pixels.reserveCapacity(stride * height)
        for y in 0..<height { pixels += isBar(y) ? bar : paper }
        let offsetsAt = 8 + pixels.count, countsAt = offsetsAt + 4 * strips, bitsAt = countsAt + 4 * strips
        var out = Array("II".utf8) + le(42, 2) + le(bitsAt + 6, 4) + pixels
        out += (0..<strips).flatMap { le(8 + $0 * perStrip * stride, 4) }
        out += (0..<strips).flatMap { le(min(perStrip, height - $0 * perStrip) * stride, 4) }
        out += le(8, 2) + le(8, 2) + le(8, 2)
        let entries: [(Int, Int, Int, Int)] = [(256, 4, 1, width), (257, 4, 1, height), (258, 3, 3, bitsAt), (259, 3, 1, 1),
                                               (262, 3, 1, 2), (273, 4, strips, offsetsAt), (277, 3, 1, 3),
                                               (278, 4, 1, perStrip), (279, 4, strips, countsAt), (284, 3, 1, 1)]
        out += le(entries.count, 2)
        for (tag, type, count, value) in entries { out += le(tag, 2) + le(type, 2) + le(count, 4) + le(value, 4) }
        return out + le(0, 4)
    }

    /// A 24-bit bitmap stored from the bottom up, over ``ReceivedFile/leftOnDiskFrom``.
    private func bitmap() -> [UInt8] {
        let width = Self.width, height = Self.height, stride = (width * 3 + 3) / 4 * 4
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var bytes = Array("BM".utf8) + le(54 + stride * height, 4) + le(0, 4) + le(54, 4)
        bytes += le(40, 4) + le(width, 4) + le(height, 4) + le(1, 2) + le(24, 2) + le(0, 4) + le(stride * height, 4)
        bytes += le(11811, 4) + le(11811, 4) + le(0, 4) + le(0, 4)
        let (row, bar) = rows(stride: stride, pixel: 3)
        bytes.reserveCapacity(bytes.count + stride * height)
        for y in (0..<height).reversed() { bytes += isBar(y) ? bar : row }
        return bytes
    }

    @Test func aLargeBitmapIsReadFromDiskAndAChangeIsRefused() throws {
        try withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("stor.bmp")
            let bytes = bitmap()
            #expect(bytes.count >= ReceivedFile.leftOnDiskFrom)
            try Data(bytes).write(to: url)
            let file = try ReceivedFile.read(url)
            let onDisk = try #require(file.onDisk)
            #expect(file.format == .bmp && file.bytes.count < 100_000)
            #expect(file.sha256 == (try FileDigest.sha256(of: url)))
            let pages = try EncodedPages.inspect(file.bytes, onDisk: onDisk)
            #expect(pages.sizes[0] == (3300, 3400))
            // The same pixels as the bitmap read whole.
            let read = try pages.decodePixels(page: 0)
            let whole = try EncodedPages.inspect(bytes).decodePixels(page: 0, largePage: 1)
            #expect(try read.gray.grayBytes() == whole.gray.grayBytes())
            #expect(try pages.decode(page: 0).width == 3300)
            // Replaced with other content of the same length: refused, not read as something else.
            try Data(bytes.reversed()).write(to: url)
            #expect(throws: InputError.changedWhileRead) { try pages.decodePixels(page: 0) }
        }
    }

    @Test func aLargeTIFFIsMeasuredAndReadFromDiskInBands() throws {
        try withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("stor.tif")
            let bytes = tiff()
            #expect(bytes.count >= ReceivedFile.leftOnDiskFrom)
            try Data(bytes).write(to: url)
            let file = try ReceivedFile.read(url)
            let onDisk = try #require(file.onDisk)
            #expect(file.format == .tiff && file.bytes.count < 100_000)
            let pages = try EncodedPages.inspect(file.bytes, onDisk: onDisk)
            #expect(pages.count == 1 && pages.sizes[0] == (Self.width, Self.height))
            let read = try pages.decodePixels(page: 0, largePage: 1)
            let whole = try EncodedPages.inspect(bytes).decodePixels(page: 0, largePage: 1)
            #expect(try read.gray.grayBytes() == whole.gray.grayBytes())
            // Below the band size the file is read whole after all, with the same result.
            #expect(try pages.decodePixels(page: 0).gray.grayBytes() == whole.gray.grayBytes())
        }
    }
}
