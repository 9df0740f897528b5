import ArkivatorCore
import ArkivatorImaging
import ArkivatorIntake
import Foundation
import TestSupport
import Testing

/// A large uncompressed bitmap is left on disk when received: hashed a chunk at a time, its
/// rows read from the file when its pixels are, never held whole; a file changed in between is
/// refused in words.
@Suite struct LargeBitmapTests {
    /// A 24-bit bitmap stored from the bottom up, over ``ReceivedFile/leftOnDiskFrom``: light
    /// paper growing darker to the right, with a dark bar a third of the way down.
    private func bitmap() -> [UInt8] {
        let width = 3300, height = 3400, stride = (width * 3 + 3) / 4 * 4
        func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var bytes = Array("BM".utf8) + le(54 + stride * height, 4) + le(0, 4) + le(54, 4)
        bytes += le(40, 4) + le(width, 4) + le(height, 4) + le(1, 2) + le(24, 2) + le(0, 4) + le(stride * height, 4)
        bytes += le(11811, 4) + le(11811, 4) + le(0, 4) + le(0, 4)
        var row = [UInt8](repeating: 0, count: stride)
        for x in 0..<width {
            let value = UInt8(250 - x * 60 / width)
            row[3 * x] = value
            row[3 * x + 1] = value
            row[3 * x + 2] = value
        }
        var bar = row
        for x in 0..<(3 * width) { bar[x] = 20 }
        bytes.reserveCapacity(bytes.count + stride * height)
        for y in (0..<height).reversed() { bytes += (height / 3..<height / 3 + 40).contains(y) ? bar : row }
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
}
