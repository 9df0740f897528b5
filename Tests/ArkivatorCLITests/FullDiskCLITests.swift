import Foundation
import TestSupport
import Testing

/// `ingest` into a library on a disk too small to keep the photo as taken: «Disken er full» with
/// what to do, on a real tmpfs (root and a working `mount` only).
@Suite struct FullDiskCLITests {
    /// `png` with a private ancillary chunk of `size` bytes after its header: a picture as small as
    /// before whose file is large (as a phone's photo with its metadata is).
    static func padded(_ png: [UInt8], size: Int) -> [UInt8] {
        var table = [UInt32](repeating: 0, count: 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            table[n] = c
        }
        let body = Array("prVt".utf8) + (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        crc ^= 0xFFFF_FFFF
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        // The signature (8 bytes) and IHDR (25) first; then the new chunk.
        return Array(png[0..<33]) + bigEndian(UInt32(size)) + body + bigEndian(crc) + Array(png[33...])
    }

    @Test(.enabled(if: SmallDisk.available, "needs root and a working mount (tmpfs)"))
    func ingestOnAFullDiskSaysTheDiskIsFull() throws {
        try withTemporaryDirectory { dir in
            let photo = dir.appendingPathComponent("brev.png")
            try Data(Self.padded(try Fixtures.bytes("clean.png"), size: 4 << 20)).write(to: photo)
            try SmallDisk.with(kilobytes: 3072) { disk in
                let output = try CLI.run(["ingest", photo.path], library: disk.appendingPathComponent("bibliotek"))
                let said = output.stdout + output.stderr
                #expect(output.status == 1, "\(said)")
                #expect(said.contains("Disken er full") && said.contains("Frigjør plass"), "\(said)")
                #expect(said.contains("Originaler"), "the photo as taken is where the disk filled: \(said)")
                #expect(!said.contains("svarte ikke"), "\(said)")
            }
        }
    }
}
