import ArkivatorCore
@testable import ArkivatorLibrary
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// A door one thread waits at (blocking its own thread, never the test's) until the test opens it.
private final class Gate: Sendable {
    private let reached = DispatchSemaphore(value: 0)
    private let door = DispatchSemaphore(value: 0)
    private let opened = NIOLockedValueBox(false)

    /// Called by the thread that waits: says it is there, then waits until the door is opened
    /// (the tests' own watchdogs open it; the limit here only keeps a broken test from hanging for
    /// good). A shorter limit let the change commit by itself while slow reads on a busy machine
    /// were still going on, and they saw it.
    func arriveAndWait() {
        reached.signal()
        _ = door.wait(timeout: .now() + 900)
    }

    /// Waits (on a file-work thread of `store`) until the other thread has arrived.
    func waitForArrival(_ store: AsyncLibrary) async throws {
        let reached = self.reached
        let arrived = try await store.files { reached.wait(timeout: .now() + 300) == .success }
        try #require(arrived, "the other thread never arrived")
    }

    func open() {
        opened.withLockedValue { $0 = true }
        door.signal()
    }

    var isOpen: Bool { opened.withLockedValue { $0 } }
}

/// A library in a new temporary folder, removed afterwards, for async tests.
private func withAsyncLibrary(_ body: (Library, AsyncLibrary, URL) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("arkivator-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let library = try Library.open(LibraryLocation(directory: directory.appendingPathComponent("bibliotek")), environment: [:])
    let store = AsyncLibrary(library)
    do {
        try await body(library, store, directory)
    } catch {
        await store.shutdown()
        throw error
    }
    await store.shutdown()
}

@Suite struct AsyncLibraryTests {
    static let late = Letters.letter("sent", "Brev om kontroll", type: .annet, person: "Ola", institution: nil,
                                     date: "2024-05-05", text: "Kontroll hos fastlegen.")

    @Test func readsGoOnWhileAChangeHoldsTheWriter() async throws {
        try await withAsyncLibrary { library, store, _ in
            try library.documents.record(Letters.all)
            try library.family { try $0.add(name: "Kari") }
            let gate = Gate()
            // A change that holds the library's lock and an open write transaction until the gate
            // opens, on a thread of its own (so it starts even while other tests keep Swift's
            // cooperative pool busy).
            let changed = DispatchSemaphore(value: 0)
            Thread {
                _ = try? library.withDatabase { database in
                    try database.inTransaction {
                        try database.execute("UPDATE documents SET title = 'endret' WHERE sha256 = ?", [Letters.epikrise.sha256])
                        gate.arriveAndWait()
                    }
                }
                changed.signal()
            }.start()
            try await gate.waitForArrival(store)
            // Opens the gate if the reads wait for the change after all (the test then fails rather
            // than hangs); long, since a machine busy with other work slows the reads a great deal.
            let watchdog = Task {
                try await Task.sleep(for: .seconds(300))
                gate.open()
            }
            let listed = try await store.read { (try $0.documents.count(), try $0.documents.list()) }
            let hits = try await store.read { try $0.index.search("epikrise").hits.map(\.id) }
            let document = try await store.read { try $0.documents.document(Letters.epikrise.shortID) }
            let members = try await store.read { try $0.familyMembers().map(\.name) }
            let status = try await store.read { try $0.uploads.uploadQueueStatus() }
            let settingRead = try await store.read { try $0.setting(.destination) }
            #expect(!gate.isOpen, "the reads waited for the change")
            gate.open()
            watchdog.cancel()
            _ = try await store.files { changed.wait(timeout: .now() + 60) }

            #expect(listed.0 == 7 && listed.1.count == 7)
            #expect(hits == [Letters.epikrise.shortID])
            #expect(document.title == Letters.epikrise.title, "a change not yet committed is not seen")
            #expect(members == ["Kari"])
            #expect(status.pending == 0 && settingRead == nil)
            #expect(try await store.read { try $0.documents.document(Letters.epikrise.shortID).title } == "endret",
                    "a read after the commit sees it")
        }
    }

    @Test func readsAndChangesGoOnWhileABackupIsMade() async throws {
        try await withAsyncLibrary { library, store, directory in
            try library.documents.record(Letters.all)
            let gate = Gate()
            let target = directory.appendingPathComponent("kopi.sqlite")
            let copied = NIOLockedValueBox<Int?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread {
                copied.withLockedValue { $0 = try? library.copySnapshot(to: target, whileCopying: gate.arriveAndWait) }
                done.signal()
            }.start()
            try await gate.waitForArrival(store)
            // Opens the gate if the reads wait for the change after all (the test then fails rather
            // than hangs); long, since a machine busy with other work slows the reads a great deal.
            let watchdog = Task {
                try await Task.sleep(for: .seconds(300))
                gate.open()
            }
            let count = try await store.read { try $0.documents.count() }
            let added = try await store.write { try $0.documents.record([Self.late]) }
            #expect(!gate.isOpen, "the read and the change waited for the backup")
            gate.open()
            watchdog.cancel()

            #expect(count == 7 && added == 1)
            _ = try await store.files { done.wait(timeout: .now() + 60) }
            #expect(copied.withLockedValue { $0 } == 7, "the copy is the snapshot taken before the letter was filed")
            #expect(try await store.read { try $0.documents.count() } == 8)
            #expect(try posixMode(target) == 0o600)
        }
    }

    @Test func aSnapshotIsAPrivateCheckedCopyInTheLibrary() async throws {
        try await withAsyncLibrary { library, store, _ in
            try library.documents.record(Letters.all + [LibraryPrivacyTests.letter])
            let snapshot = try await store.backupSnapshot()
            defer { try? FileManager.default.removeItem(at: snapshot) }
            #expect(snapshot.deletingLastPathComponent().standardizedFileURL.path
                    == library.location.directory.standardizedFileURL.path)
            #expect(try posixMode(snapshot) == 0o600)
            #expect(!FileManager.default.fileExists(atPath: snapshot.path + "-wal"), "one self-contained file")
            let bytes = try Data(contentsOf: snapshot)
            for number in LibraryPrivacyTests.forbidden { #expect(!bytes.contains(number)) }
            let copy = try Database(url: snapshot)
            #expect(try copy.firstRow("SELECT count(*) FROM documents")?[0].int == 8)
            #expect(try copy.rows("PRAGMA integrity_check").first?[0].string == "ok")
        }
    }

    @Test func snapshotsLeftByADeadProcessAreRemovedAtOpen() throws {
        try withLibrary { library, _ throws in
            let stale = library.location.directory.appendingPathComponent(Library.snapshotPrefix + "gammel.sqlite")
            try Data("kopi".utf8).write(to: stale)
            let other = library.location.directory.appendingPathComponent("mitt-notat.sqlite")
            try Data("mitt".utf8).write(to: other)
            // A second library in this process holds the shared lock: nothing is removed while it is open.
            _ = try Library.open(library.location, environment: [:])
            #expect(FileManager.default.fileExists(atPath: stale.path))
        }
        try withTemporaryDirectory { directory in
            let location = LibraryLocation(directory: directory.appendingPathComponent("bibliotek"))
            _ = try Library.open(location, environment: [:])
            let stale = location.directory.appendingPathComponent(Library.snapshotPrefix + "gammel.sqlite")
            try Data("kopi".utf8).write(to: stale)
            let other = location.directory.appendingPathComponent("mitt-notat.sqlite")
            try Data("mitt".utf8).write(to: other)
            _ = try Library.open(location, environment: [:])
            #expect(!FileManager.default.fileExists(atPath: stale.path), "left over: removed")
            #expect(FileManager.default.fileExists(atPath: other.path), "other files stay")
        }
    }

    @Test func shutdownFinishesTheWorkAskedForAndRefusesMore() async throws {
        try await withAsyncLibrary { library, store, _ in
            let letters = Letters.all
            try await withThrowingTaskGroup(of: Int.self) { group in
                for letter in letters {
                    group.addTask { try await store.write { try $0.documents.record([letter]) } }
                }
                // Give the tasks a moment to ask; those that asked before the shutdown are done after it.
                try await Task.sleep(for: .milliseconds(50))
                await store.shutdown()
                var filed = 0
                while let result = await group.nextResult() {
                    switch result {
                    case .success(let count): filed += count
                    case .failure(let error): #expect((error as? LibraryFailure)?.code == .closed, "\(error)")
                    }
                }
                #expect(try library.documents.count() == filed)
            }
            await store.shutdown()
            let refused = await #expect(throws: LibraryFailure.self) { try await store.read { try $0.documents.count() } }
            #expect(refused?.code == .closed)
            #expect(refused?.userMessage.norwegian.contains("stenges") == true)
        }
    }
}
