import ArkivatorCore
import ArkivatorLibrary
import ArkivatorApp
import Foundation

/// Makes each share link's PDF once: started as the link is made, and awaited by the first
/// download (two downloads at once wait for the same making). The work runs in the web app's
/// lane for page work (``WebWork/pages``), never on the pool that serves requests: reading the
/// pages again takes seconds.
/// Why the last making of a link's PDF failed is kept (in memory) for «Delinger» to say.
actor SharePackMaker {
    private var making: [Int: Task<URL, any Error>] = [:]
    private var failures: [Int: UserMessage] = [:]
    private let lane: WorkLane

    init(lane: WorkLane) {
        self.lane = lane
    }

    /// Link `id`'s PDF of `letters`, made now (or by a making already under way) when not made yet.
    func pdf(link id: Int, letters: [LibraryDocument], household: Household) async throws -> URL {
        if let running = making[id] { return try await running.value }
        let lane = lane
        let task = Task { try await lane.run { try household.sharePack(link: id, letters: letters) } }
        making[id] = task
        defer { making[id] = nil }
        do {
            let url = try await task.value
            failures[id] = nil
            return url
        } catch {
            failures[id] = WebError.from(error).message
            throw error
        }
    }

    /// Why the PDF of each link whose last making failed could not be made.
    func problems() -> [Int: UserMessage] { failures }
}
