import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How the C allocator hands memory back to the system while a large page is read.
///
/// glibc keeps freed memory for reuse, in one arena per thread, and maps blocks of their own only
/// above a size it raises as large blocks are freed (up to 32 MB). Around a page at the size limit
/// that keeps some 100 MB of rows, buffers and the decoders' and Tesseract's working memory in the
/// heap while the next large page is decoded on another worker. While a large page is read, blocks
/// of 1 MB and more are therefore mapped and unmapped on their own, and afterwards every arena's free
/// memory is handed back; then glibc's usual limits apply again. Ordinary pages never change them:
/// mapping each page-sized block afresh costs page faults (some 15 % more CPU time on 300 DPI scans).
public enum MemoryReturn {
    private typealias Option = @convention(c) (Int32, Int32) -> Int32
    private typealias Trim = @convention(c) (Int) -> Int32
    /// `mallopt`'s parameters (malloc.h).
    private static let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3

    /// glibc's `mallopt` and `malloc_trim`, looked up rather than declared: malloc.h is not part of
    /// Swift's Glibc module.
    private static let functions: (option: Option, trim: Trim)? = {
        #if canImport(Glibc)
        guard let option = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt"),
              let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return (unsafeBitCast(option, to: Option.self), unsafeBitCast(trim, to: Trim.self))
        #else
        return nil
        #endif
    }()

    /// How many large pages are being read now.
    private static let reading = NSLock()
    nonisolated(unsafe) private static var largePages = 0

    /// Runs `body`, the reading of a page at or near the size limit, with large blocks handed back
    /// as they are freed, and every arena's free memory handed back when the last such page is read.
    public static func whileReadingLargePage<T>(_ body: () throws -> T) rethrows -> T {
        guard let functions else { return try body() }
        reading.lock()
        largePages += 1
        if largePages == 1 {
            _ = functions.option(mmapThreshold, 1 << 20)
            _ = functions.option(trimThreshold, 1 << 20)
        }
        reading.unlock()
        defer {
            reading.lock()
            largePages -= 1
            if largePages == 0 {
                _ = functions.trim(0)
                // glibc's own limits once they have grown: blocks from 32 MB mapped, the heap's
                // top handed back from 64 MB.
                _ = functions.option(mmapThreshold, 32 << 20)
                _ = functions.option(trimThreshold, 64 << 20)
            }
            reading.unlock()
        }
        return try body()
    }
}
