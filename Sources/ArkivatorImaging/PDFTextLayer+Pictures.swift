extension PDFTextLayer {
    /// The smallest picture worth reading, in pixels at 300 DPI: 1.5 inches wide, 0.4 inch high
    /// (two lines of body text) and 2.5 square inches in all. A letterhead's logo, an icon or a
    /// rule is smaller; a pasted paragraph of a scanned letter is larger.
    static let smallestPicture = (width: 450, height: 120, area: 225_000)

    /// The most pictures one page has read: the largest, if it has more.
    static let mostPictures = 8

    /// Words of the text layer standing on a picture that mark it as already read: a scan with
    /// an invisible text layer over it (which another program made) is not read twice.
    static let wordsOnTop = 3

    /// Pictures touching or this close (pixels at 300 DPI) are one picture: a scan stored as
    /// strips, or tiles, is read whole.
    static let pictureJoin = 6

    /// Which of a page's pictures OCR should read, from where they stand (`rectangles`: x, y,
    /// width, height in pixels at 300 DPI, in any order) and the boxes of the text layer's
    /// `words`, on a page of `pageWidth × pageHeight` pixels.
    ///
    /// Pictures are cut to the page and joined where they touch; those too small to hold text
    /// (see ``smallestPicture``) and those with ``wordsOnTop`` words of the layer standing on
    /// them are left out. The ``mostPictures`` largest are kept, returned top to bottom.
    public static func readablePictures(_ rectangles: [[Int]], words: [[Int]], pageWidth: Int, pageHeight: Int) -> [[Int]] {
        var boxes: [Box] = rectangles.compactMap { r in
            guard r.count == 4 else { return nil }
            let box = Box(left: max(0, r[0]), top: max(0, r[1]), right: min(pageWidth, r[0] + r[2]),
                          bottom: min(pageHeight, r[1] + r[3]))
            return box.right > box.left && box.bottom > box.top ? box : nil
        }
        boxes = joined(boxes)
        let centres = words.compactMap { w in w.count == 4 ? (x: w[0] + w[2] / 2, y: w[1] + w[3] / 2) : nil }
        let readable = boxes.filter { box in
            box.width >= smallestPicture.width && box.height >= smallestPicture.height
                && box.width * box.height >= smallestPicture.area
                && centres.filter { box.contains(x: $0.x, y: $0.y) }.count < wordsOnTop
        }
        return readable.sorted { $0.width * $0.height > $1.width * $1.height }
            .prefix(mostPictures)
            .sorted { ($0.top, $0.left) < ($1.top, $1.left) }
            .map { [$0.left, $0.top, $0.width, $0.height] }
    }

    /// `boxes` with every group of touching boxes replaced by the box around it.
    private static func joined(_ boxes: [Box]) -> [Box] {
        var result: [Box] = []
        for var box in boxes {
            // Taking in one box may bring the union close to boxes already taken: repeat until none.
            var merged = true
            while merged {
                merged = false
                if let index = result.firstIndex(where: { $0.touches(box, within: pictureJoin) }) {
                    box = box.union(result.remove(at: index))
                    merged = true
                }
            }
            result.append(box)
        }
        return result
    }

    private struct Box {
        var left: Int, top: Int, right: Int, bottom: Int
        var width: Int { right - left }
        var height: Int { bottom - top }

        func contains(x: Int, y: Int) -> Bool { x >= left && x < right && y >= top && y < bottom }

        func touches(_ other: Box, within gap: Int) -> Bool {
            other.left <= right + gap && left <= other.right + gap && other.top <= bottom + gap && top <= other.bottom + gap
        }

        func union(_ other: Box) -> Box {
            Box(left: min(left, other.left), top: min(top, other.top), right: max(right, other.right),
                bottom: max(bottom, other.bottom))
        }
    }
}
