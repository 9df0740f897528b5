import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// The upload queue as the library page and Settings show it: what waits, and why.
struct UploadState: Sendable {
    let waiting: Int
    let failed: Int
    /// Why uploads wait, in the words the worker recorded; nil when nothing is held up.
    let reason: String?
    /// The jobs that are not done yet, newest first (at most 100).
    let open: [UploadJob]
    /// The latest jobs that are done (at most 20).
    let recent: [UploadJob]

    static func read(_ library: Library) throws -> UploadState {
        let open = try library.uploadJobs(states: [.queued, .uploading, .error]).filter { !$0.trashed }
        let held = open.filter { $0.lastError != nil && $0.state != .uploading }
        return UploadState(waiting: open.filter { $0.state != .error }.count, failed: open.filter { $0.state == .error }.count,
                           reason: held.max { $0.updatedAt < $1.updatedAt }?.lastError,
                           open: Array(open.suffix(100).reversed()), recent: [])
    }

    struct Banner {
        let reason: String
    }

    /// The notice the library page shows when uploads are held up.
    func banner(_ words: Words) -> Banner? {
        guard let reason, waiting + failed > 0 else { return nil }
        return Banner(reason: reason)
    }
}
