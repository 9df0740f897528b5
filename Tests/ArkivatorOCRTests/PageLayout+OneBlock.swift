@testable import ArkivatorOCR

extension PageLayout {
    /// An A4 page read at 300 DPI whose reading is `words` in one block framed by `box` (x, y,
    /// width, height), as one line.
    static func oneBlock(_ words: [Word], box: [Int]) -> PageLayout {
        var layout = PageLayout()
        layout.pageWidth = 2480
        layout.pageHeight = 3508
        layout.startBlock(box: box)
        for word in words { layout.add(word) }
        return layout
    }
}
