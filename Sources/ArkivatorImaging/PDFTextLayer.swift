/// The text a PDF page carries (a letter saved from a health portal or an office program), with
/// where each word stands: read instead of OCR when it can be trusted.
public struct PDFTextLayer: Sendable, Equatable {
    public struct Word: Sendable, Equatable {
        public var text: String
        /// x, y, width, height in pixels of the page rendered at 300 DPI.
        public var box: [Int]

        public init(text: String, box: [Int]) {
            self.text = text
            self.box = box
        }
    }

    /// The page's lines in the PDF's reading order, each its words left to right.
    public var lines: [[Word]]
    /// The share of the page's area (0…1) that images cover.
    public var imageCoverage: Double
    /// The pictures OCR should read as well (a scanned attachment pasted into a letter): their
    /// places in pixels at 300 DPI (x, y, width, height), top to bottom; see
    /// ``readablePictures(_:words:pageWidth:pageHeight:)``.
    public var pictures: [[Int]]

    public init(lines: [[Word]], imageCoverage: Double, pictures: [[Int]] = []) {
        self.lines = lines
        self.imageCoverage = imageCoverage
        self.pictures = pictures
    }

    /// Whether the layer can stand in for OCR: the page is not a picture (a scan whose text layer
    /// some other program guessed is read again by our own OCR), it holds some words, and nearly
    /// all of them look like words (a font without a Unicode map gives symbols and letter soup).
    public var isTrustworthy: Bool {
        guard imageCoverage < Self.scannedCoverage else { return false }
        let words = lines.joined().map(\.text)
        let meaningful = words.filter { Self.letterCount($0) >= 2 }
        guard meaningful.count >= 3 else { return false }
        let plausible = words.filter(Self.looksLikeWord).count
        return Double(plausible) >= 0.85 * Double(words.count)
    }

    /// A page whose images cover this share of it is a scan.
    static let scannedCoverage = 0.5

    private static func letterCount(_ word: String) -> Int {
        word.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.count
    }

    /// Letters (with a vowel when there are four or more), or numbers with their separators, with
    /// punctuation around; nothing from the replacement, private-use or control ranges.
    static func looksLikeWord(_ word: String) -> Bool {
        let scalars = word.unicodeScalars
        if scalars.contains(where: { $0.value == 0xFFFD || (0xE000...0xF8FF).contains($0.value) || $0.properties.generalCategory == .control }) {
            return false
        }
        let core = scalars.drop { !isWordScalar($0) }.reversed().drop { !isWordScalar($0) }.reversed()
        guard !core.isEmpty else { return scalars.allSatisfy { $0.properties.generalCategory.isPunctuationOrSymbol } }
        let letters = core.filter { $0.properties.isAlphabetic }
        let digits = core.filter { ("0"..."9").contains($0) }
        let joiners = core.filter { "-–'’./:,@_&+%".unicodeScalars.contains($0) }
        guard letters.count + digits.count + joiners.count == core.count else { return false }
        if digits.isEmpty, letters.count >= 4 {
            return letters.contains { "aeiouyæøåäöéèáAEIOUYÆØÅÄÖÉÈÁ".unicodeScalars.contains($0) }
        }
        return true
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }
}

private extension Unicode.GeneralCategory {
    var isPunctuationOrSymbol: Bool {
        switch self {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            true
        default:
            false
        }
    }
}
