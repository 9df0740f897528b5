/// A page's content stream read for one question: does it draw exactly one external picture
/// (`Do`) and nothing else that shows? State changes, clipping, marked content and text drawn
/// invisibly (render mode 3, as a scan's OCR layer is) are allowed; any painted path, shading,
/// inline picture, transparency setting, visible text or unknown operator is not.
enum PDFPageProgram {
    /// The picture's name in the page's resources and the matrix it is drawn with (which maps the
    /// picture's unit square onto the page), or nil.
    static func onePicture(_ program: [UInt8]) -> (name: String, matrix: [Double])? {
        var lexer = PDFLexer(program, at: 0)
        var operands: [PDFValue] = []
        var matrix: [Double] = [1, 0, 0, 1, 0, 0], invisible = false
        var saved: [(matrix: [Double], invisible: Bool)] = []
        var drawn: (name: String, matrix: [Double])?
        var steps = 0
        while !lexer.atEnd {
            steps += 1
            guard steps < 200_000, let value = lexer.value() else { return nil }
            guard case .keyword(let op) = value else {
                operands.append(value)
                continue
            }
            defer { operands.removeAll(keepingCapacity: true) }
            switch op {
            case "q":
                guard saved.count < 64 else { return nil }
                saved.append((matrix, invisible))
            case "Q":
                guard let last = saved.popLast() else { return nil }
                (matrix, invisible) = last
            case "cm":
                let m = operands.compactMap(\.number)
                guard operands.count == 6, m.count == 6 else { return nil }
                matrix = multiply(m, matrix)
            case "Do":
                guard drawn == nil, operands.count == 1, let name = operands[0].name else { return nil }
                drawn = (name, matrix)
            case "Tr":
                invisible = operands.first?.int == 3
            case "Tj", "TJ", "'", "\"":
                guard invisible else { return nil }
            case "BT", "ET", "Tf", "Td", "TD", "Tm", "T*", "Tc", "Tw", "Tz", "TL", "Ts",
                 "w", "J", "j", "M", "d", "ri", "i", "g", "G", "rg", "RG", "k", "K", "cs", "CS", "sc", "scn", "SC", "SCN",
                 "m", "l", "c", "v", "y", "h", "re", "n", "W", "W*",
                 "BMC", "BDC", "EMC", "MP", "DP", "BX", "EX":
                break
            default:
                return nil
            }
        }
        return drawn
    }

    /// `m` then `n`: PDF's row-vector matrices [a b c d e f].
    private static func multiply(_ m: [Double], _ n: [Double]) -> [Double] {
        [m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3],
         m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3],
         m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5]]
    }
}
