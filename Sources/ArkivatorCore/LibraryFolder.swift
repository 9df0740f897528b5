import Foundation

/// The library folder's layout: every folder Arkivator keeps in it, each named here once.
///
/// ```
/// <library>/
///   arkivator.sqlite, library.key …   the database and the secrets
///   Arkiv/         the archive (unless set elsewhere): Person/Dokumenter, Person/Bilder
///   Papirkurv/     letters in the trash, with their files and photos as taken
///   Originaler/    the photos and files as received
///   Miniatyrer/    thumbnails of first pages
///   Delinger/      the share links' PDFs and page images
///   Innboks/       letters the web app hands to `serve`'s watcher
///   .opplasting/   the web app's uploads while their pages arrive
/// ```
public enum LibraryFolder: String, CaseIterable, Sendable {
    case archive = "Arkiv"
    case trash = "Papirkurv"
    case originals = "Originaler"
    case thumbnails = "Miniatyrer"
    case shares = "Delinger"
    case inbox = "Innboks"
    case uploadStaging = ".opplasting"

    /// The folders a backup holds, every file of each.
    public static let backedUp: [LibraryFolder] = [.archive, .trash, .originals, .thumbnails, .shares, .inbox]
}

extension LibraryLocation {
    /// One of the library's own folders.
    public func folder(_ folder: LibraryFolder) -> URL {
        directory.appendingPathComponent(folder.rawValue, isDirectory: true)
    }
}
