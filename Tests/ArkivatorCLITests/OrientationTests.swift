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

/// Phone pictures: a JPEG whose EXIF says how to turn it, and a WebP page, read like their twins.
@Suite(.serialized) struct PhonePictureTests {
    func ingest(_ file: URL, in dir: URL) throws -> [String: Any] {
        let output = try CLI.run(["ingest", "--json", "--no-archive", "--library", dir.path, file.path])
        #expect(output.status == 0, "\(output.stderr)")
        return try #require(try CLI.records(output).first)
    }

    func firstPage(_ record: [String: Any]) throws -> [String: Any] {
        try #require((record["pageReports"] as? [[String: Any]])?.first)
    }

    @Test func anEXIFTurnedPhotoNeedsNoOrientationDetection() throws {
        try withTemporaryDirectory { dir in
            let upright = try #require(try Image.decodePages(Fixtures.bytes("clean.png")).first)
            // Stored as the sensor saw it (turned a quarter counter-clockwise); the tag says "turn right".
            let sideways = try upright.rotated(quarterTurns: 3).jpegData(quality: 90)
            let tagged = dir.appendingPathComponent("mobil.jpg"), untagged = dir.appendingPathComponent("uten-exif.jpg")
            try Data(ExifMaker.jpeg(sideways, orientation: 6)).write(to: tagged)
            try Data(sideways).write(to: untagged)

            let record = try ingest(tagged, in: dir.appendingPathComponent("a"))
            let page = try firstPage(record)
            #expect(page["exifOrientation"] as? Int == 6)
            #expect(page["orientationChecked"] as? Bool == false, "upright from the start: no detection")
            #expect((page["cleanup"] as? [String: Any])?["quarterTurns"] as? Int == 0)
            let cer = characterErrorRate(truth: try Fixtures.text("clean.txt"), predicted: record["text"] as? String ?? "")
            #expect(cer < 0.06, "CER \(cer)")

            // The same picture without the tag lies in landscape, so detection has to find the turn.
            let control = try firstPage(try ingest(untagged, in: dir.appendingPathComponent("b")))
            #expect(control["orientationChecked"] as? Bool == true && control["exifOrientation"] as? Int == nil)
        }
    }

    @Test func anHEICPhotoReadsLikeItsPNGTwin() throws {
        try withTemporaryDirectory { dir in
            let png = dir.appendingPathComponent("side.png"), heic = dir.appendingPathComponent("IMG_0001.HEIC")
            try FileManager.default.copyItem(at: Fixtures.url("clean.png"), to: png)
            // As an iPhone stores it, made by libheif's own encoder.
            let encoder = Process()
            encoder.executableURL = URL(fileURLWithPath: "/usr/bin/heif-enc")
            encoder.arguments = ["-q", "80", "-o", heic.path, png.path]
            encoder.standardOutput = FileHandle.nullDevice
            try encoder.run()
            encoder.waitUntilExit()
            #expect(encoder.terminationStatus == 0)
            let record = try ingest(heic, in: dir.appendingPathComponent("a"))
            let page = try firstPage(record)
            #expect(page["width"] as? Int == 2480 && page["height"] as? Int == 3508)
            let truth = try Fixtures.text("clean.txt")
            let fromHEIC = characterErrorRate(truth: truth, predicted: record["text"] as? String ?? "")
            let fromPNG = characterErrorRate(truth: truth, predicted: try ingest(png, in: dir.appendingPathComponent("b"))["text"] as? String ?? "")
            #expect(fromHEIC <= fromPNG + 0.01, "HEIC CER \(fromHEIC) against PNG \(fromPNG)")

            // Cut off halfway: refused in one sentence, the batch goes on.
            let bytes = try Data(contentsOf: heic)
            let cut = dir.appendingPathComponent("avkuttet.heic")
            try bytes.prefix(bytes.count / 2).write(to: cut)
            let output = try CLI.run(["ingest", "--json", "--no-archive", "--library", dir.appendingPathComponent("c").path,
                                      cut.path, png.path])
            let records = try CLI.records(output)
            #expect(output.status == 1 && records.count == 2)
            #expect(["truncated", "undecodable"].contains(records.first?["errorCode"] as? String ?? ""), "\(records.first ?? [:])")
            #expect(records.last?["errorCode"] as? String == nil)
        }
    }

    /// GIF and BMP, as paperless-ngx and OCRmyPDF read them: a gray GIF, a 24-bit bitmap stored
    /// from the bottom up and an 8-bit one stored from the top down give the PNG's text.
    @Test func GIFAndBMPPagesReadLikeTheirPNGTwin() throws {
        try withTemporaryDirectory { dir in
            let upright = try #require(try Image.decodePages(Fixtures.bytes("clean.png")).first)
            let gif = dir.appendingPathComponent("side.gif"), bmp = dir.appendingPathComponent("side.bmp")
            let topDown = dir.appendingPathComponent("ovenfra.dib")
            try Data(try upright.gifData()).write(to: gif)
            try Data(try upright.bmpData(colour: true)).write(to: bmp)
            try Data(BitmapMaker.topDown(try upright.bmpData())).write(to: topDown)
            let fromPNG = try ingest(Fixtures.url("clean.png"), in: dir.appendingPathComponent("png"))["text"] as? String
            #expect((fromPNG ?? "").count > 500, "the PNG twin was read")
            for (file, name) in [(gif, "gif"), (bmp, "bmp"), (topDown, "dib")] {
                let record = try ingest(file, in: dir.appendingPathComponent(name))
                let page = try firstPage(record)
                #expect(page["width"] as? Int == 2480 && page["height"] as? Int == 3508, "\(name)")
                #expect(record["text"] as? String == fromPNG, "\(name) reads other words than its PNG twin")
            }
        }
    }

    @Test func aWebPPageReadsLikeItsPNGTwin() throws {
        try withTemporaryDirectory { dir in
            let upright = try #require(try Image.decodePages(Fixtures.bytes("clean.png")).first)
            let webp = dir.appendingPathComponent("side.webp")
            try Data(try upright.webpData(quality: 85)).write(to: webp)
            let truth = try Fixtures.text("clean.txt")
            let fromWebP = characterErrorRate(truth: truth, predicted: try ingest(webp, in: dir.appendingPathComponent("a"))["text"] as? String ?? "")
            let fromPNG = characterErrorRate(truth: truth, predicted: try ingest(Fixtures.url("clean.png"), in: dir.appendingPathComponent("b"))["text"] as? String ?? "")
            #expect(fromWebP <= fromPNG + 0.01, "WebP CER \(fromWebP) against PNG \(fromPNG)")
        }
    }
}
