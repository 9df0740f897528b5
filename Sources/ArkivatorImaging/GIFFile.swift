import ArkivatorCore

/// A GIF's first frame, found by walking the file's blocks, without decoding a pixel.
///
/// Leptonica (through giflib) decodes every frame of a GIF before it hands back the first, and
/// reads a GIF's size only by decoding it; so the frame is measured here, against the page
/// budget, and what is decoded is a GIF holding that frame alone. A GIF with more frames (an
/// animation) is read as its first frame: a letter is one still picture, and a scanner that makes
/// several pages writes TIFF or PDF.
struct GIFFile {
    /// The first frame's size in pixels.
    let width: Int
    let height: Int
    /// A GIF with the same screen and colours holding the first frame only.
    let firstFrame: [UInt8]

    /// Walks the blocks; throws `truncated` when the first frame is cut off and `undecodable`
    /// when the blocks make no sense.
    init(_ bytes: [UInt8]) throws(InputError) {
        guard FileSignature.isGIF(bytes), bytes.count >= 13 else { throw InputError.undecodable }
        func colourTable(_ flags: UInt8) -> Int { flags & 0x80 != 0 ? 3 << (Int(flags & 0x07) + 1) : 0 }
        var position = 13 + colourTable(bytes[10])
        let screen = position
        /// Skips a chain of data sub-blocks (a length byte, then that many bytes; 0 ends it).
        func skipSubBlocks() throws(InputError) {
            while true {
                guard position < bytes.count else { throw InputError.truncated }
                let length = Int(bytes[position])
                position += 1 + length
                if length == 0 { return }
            }
        }
        var first: (start: Int, end: Int, width: Int, height: Int)?
        walk: while first == nil {
            guard position < bytes.count else { throw InputError.truncated }
            switch bytes[position] {
            case 0x21:
                // An extension: its label, then sub-blocks.
                position += 2
                try skipSubBlocks()
            case 0x2C:
                let start = position
                guard position + 10 <= bytes.count else { throw InputError.truncated }
                func number(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
                let width = number(position + 5), height = number(position + 7)
                position += 10 + colourTable(bytes[position + 9])
                // The LZW code size, then the compressed pixels.
                position += 1
                try skipSubBlocks()
                first = (start, position, width, height)
            case 0x3B:
                break walk
            default:
                throw InputError.undecodable
            }
        }
        guard let first else { throw InputError.noPages }
        self.width = first.width
        self.height = first.height
        self.firstFrame = Array(bytes[0..<screen]) + Array(bytes[first.start..<first.end]) + [0x3B]
    }
}
