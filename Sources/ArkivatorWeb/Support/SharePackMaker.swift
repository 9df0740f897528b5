import ArkivatorCore
import ArkivatorLibrary
import ArkivatorPipeline
import Foundation

/// Makes each share link's PDF once: started as the link is made, and awaited by the first
/// download (two downloads at once wait for the same making). The work runs on Dispatch threads
/// (``Blocking``), never on the pool that serves requests: reading the pages again takes seconds.
actor SharePackMaker {
    private var making: [Int: Task<URL, any Error>] = [:]

    /// Link `id`'s PDF of `letters`, made now (or by a making already under way) when not made yet.
    func pdf(link id: Int, letters: [LibraryDocument], household: Household) async throws -> URL {
        if let running = making[id] { return try await running.value }
        let task = Task { try await Blocking.run { try household.sharePack(link: id, letters: letters) } }
        making[id] = task
        defer { making[id] = nil }
        return try await task.value
    }
}
