internal import CLeptonica

extension Image {
    /// A copy of the page with a solid black box over each of `boxes` (x, y, width, height in
    /// pixels), each grown by `margin` pixels on every side and kept inside the page: how a
    /// fødselsnummer is hidden on a page image. A colour-mapped page is made gray first.
    public func blackedOut(_ boxes: [[Int]], margin: Int = 0) throws(ImagingError) -> Image {
        let source = try pixGetColormap(pix) == nil ? self : grayscale()
        let copy = try Image.wrap(pixCopy(nil, source.pix), "pixCopy")
        // Black is 1 in a 1-bit image, 0 in a gray or colour one.
        let black: UInt32 = copy.depth == 1 ? 1 : 0
        for box in boxes where box.count == 4 {
            let left = max(0, box[0] - margin), top = max(0, box[1] - margin)
            let right = min(copy.width, box[0] + box[2] + margin), bottom = min(copy.height, box[1] + box[3] + margin)
            guard right > left, bottom > top else { continue }
            var rect = boxCreate(Int32(left), Int32(top), Int32(right - left), Int32(bottom - top))
            guard rect != nil else { throw ImagingError(operation: "boxCreate") }
            let status = pixSetInRectArbitrary(copy.pix, rect, black)
            boxDestroy(&rect)
            guard status == 0 else { throw ImagingError(operation: "pixSetInRectArbitrary") }
        }
        return copy
    }
}
