import ArkivatorCore

/// A picture as HEIC and lossy WebP code it: 8-bit luma at full size, the two chroma planes at
/// half size. Made into a large page (``PagePixels``) straight from the planes: gray from the
/// luma, as a large JPEG's is, and the half-size colour from the chroma and the mean of four
/// lumas, so the page is never whole in RGB.
struct ChromaPlanes {
    let luma: UnsafePointer<UInt8>
    let lumaStride: Int
    let blue: UnsafePointer<UInt8>
    let blueStride: Int
    let red: UnsafePointer<UInt8>
    let redStride: Int
    /// Levels 0…255 rather than video's 16…235 (16…240 for chroma).
    let fullRange: Bool
    /// BT.709's colours rather than BT.601's.
    let bt709: Bool

    func leanPage(width: Int, height: Int) throws(InputError) -> PagePixels {
        guard let page = LeanPage(width: width, height: height, colour: true) else { throw InputError.undecodable }
        let lumaScale: Float = fullRange ? 1 : 255 / 219, lumaBase: Float = fullRange ? 0 : 16
        let chromaScale: Float = fullRange ? 1 : 255 / 224
        let (rv, gu, gv, bu): (Float, Float, Float, Float) = bt709 ? (1.5748, 0.187324, 0.468124, 1.8556)
                                                                   : (1.402, 0.344136, 0.714136, 1.772)
        func clamp(_ value: Float) -> UInt8 { UInt8(max(0, min(255, value + 0.5))) }
        let table = (0..<256).map { clamp((Float($0) - lumaBase) * lumaScale) }
        var row = [UInt8](repeating: 0, count: width), half = [UInt8](repeating: 0, count: 3 * (width / 2))
        for y in 0..<height {
            let line = luma + y * lumaStride
            row.withUnsafeMutableBufferPointer { out in
                for x in 0..<width { out[x] = table[Int(line[x])] }
                if let base = out.baseAddress { page.add(grayRow: UnsafePointer(base), y: y) }
            }
            guard y % 2 == 1 else { continue }
            let above = luma + (y - 1) * lumaStride, cb = blue + (y / 2) * blueStride, cr = red + (y / 2) * redStride
            half.withUnsafeMutableBufferPointer { out in
                for x in 0..<(width / 2) {
                    let sum = Int(above[2 * x]) + Int(above[2 * x + 1]) + Int(line[2 * x]) + Int(line[2 * x + 1])
                    let l = (Float(sum) / 4 - lumaBase) * lumaScale
                    let u = (Float(cb[x]) - 128) * chromaScale, v = (Float(cr[x]) - 128) * chromaScale
                    out[3 * x] = clamp(l + rv * v)
                    out[3 * x + 1] = clamp(l - gu * u - gv * v)
                    out[3 * x + 2] = clamp(l + bu * u)
                }
                if let base = out.baseAddress { page.set(halfColourRow: UnsafePointer(base), y: y / 2) }
            }
        }
        return page.pixels
    }
}
