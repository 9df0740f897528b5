/// Windows bitmaps as other programs write them, made from the bitmaps Leptonica writes.
public enum BitmapMaker {
    /// The same uncompressed bitmap stored from the top down (a negative height, rows in reading
    /// order), as some scanner drivers write it.
    public static func topDown(_ bmp: [UInt8]) -> [UInt8] {
        func number(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bmp[at + $1]) << (8 * $1) } }
        let offset = number(10), width = number(18), height = number(22), depth = Int(bmp[28]) | Int(bmp[29]) << 8
        let stride = (width * depth + 31) / 32 * 4
        var result = Array(bmp[0..<offset])
        let negative = UInt32(bitPattern: Int32(-height))
        for k in 0..<4 { result[22 + k] = UInt8(truncatingIfNeeded: negative >> (8 * UInt32(k))) }
        for row in (0..<height).reversed() {
            result += bmp[(offset + row * stride)..<(offset + (row + 1) * stride)]
        }
        return result
    }
}
