#if canImport(Glibc)
import Glibc
#endif

/// How the C allocator hands memory back to the system.
///
/// glibc keeps freed memory for reuse, and by default raises the size from which it maps a block
/// of its own each time such a block is freed (up to 32 MB): after one large page, a page's worth
/// of rows, buffers and Tesseract's working memory stays in the heap, in one arena per worker,
/// while the next page is decoded. Fixed limits of 1 MB hand blocks that large back as soon as they
/// are freed (three pages at the 60-megapixel limit: some 50 to 150 MB less at the peak).
enum MemoryReturn {
    /// glibc's `mallopt` parameters (malloc.h), which Swift's Glibc module does not carry.
    private static let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3

    static func configure() {
        #if canImport(Glibc)
        // Looked up rather than declared: malloc.h is not part of the module.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = mallopt(mmapThreshold, 1 << 20)
        _ = mallopt(trimThreshold, 1 << 20)
        #endif
    }
}
