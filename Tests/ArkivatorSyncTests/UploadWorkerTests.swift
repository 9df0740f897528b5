import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorSync
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The upload queue against real destinations: a folder, `rclone serve webdav` on 127.0.0.1 (with
/// and without a login), rclone itself, and `scripts/test/webdav_faults.py` in front of the server for
/// a server that is down, fails or is full.
@Suite struct UploadWorkerTests {
    // MARK: Folder

    @Test func copiesAMachineRestartMayHaveLostAreSentAgainAndOnlyThose() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let copy = try sandbox.folder("Kopi")
        let setting = "folder:\(copy.path)"
        let started = Date()
        let documents = try sandbox.fileDocuments(3, destination: setting)
        let worker = UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:])
        #expect(await worker.runPass().done.count == 3)
        // The pass noted that its copies may not be on the disk yet, on this start of the machine.
        let unsettled = UnsettledCopies(library: sandbox.library.location.directory)
        let note = try #require(unsettled.notes()[setting])
        #expect(note.boot == UnsettledCopies.currentBoot && note.since >= started.addingTimeInterval(-1))
        #expect(unsettled.lost(at: setting) == nil, "the same start: nothing lost")

        // The power went before the disk had them: one copy is empty, one is gone; the machine
        // starts again (another boot id) and the next pass sends those copies again.
        let docx = copy.appendingPathComponent("Kari Nordmann/Dokumenter/\(documents[0].title).docx")
        let pdf = copy.appendingPathComponent("Kari Nordmann/Bilder/\(documents[2].title).pdf")
        try Data().write(to: docx)
        try FileManager.default.removeItem(at: pdf)
        try unsettled.save([setting: .init(boot: "another start", since: note.since, last: note.since)])
        #expect(unsettled.lost(at: setting) == note.since)
        let after = await worker.runPass()
        #expect(after.resentAfterRestart == 3)
        #expect(after.done.count == 3)
        #expect(after.entries.map(\.uploaded).reduce(0, +) == 2, "only the two lost copies are written again")
        try sandbox.expectUploaded(to: copy)
        #expect(unsettled.notes()[setting]?.boot == UnsettledCopies.currentBoot, "a new note, for this pass's writes")

        // A note for a destination no longer copied to is forgotten by the next pass.
        try unsettled.willWrite(to: "folder:/et/annet/sted")
        _ = await worker.runDueJobs()
        #expect(unsettled.notes()["folder:/et/annet/sted"] == nil)

        // A minute after the last write on the same start, the copies are on the disk: the note goes.
        try unsettled.settle(now: Date().addingTimeInterval(UnsettledCopies.settleAfter + 1))
        #expect(unsettled.notes().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: unsettled.file.path))
        #expect(await worker.runDueJobs().entries.isEmpty)
    }

    @Test func folderUploadsAndASecondPassHasNothingToDo() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let copy = try sandbox.folder("Kopi")
        let documents = try sandbox.fileDocuments(2, destination: "folder:\(copy.path)")
        #expect(try sandbox.library.uploads.uploadJobs().map(\.state) == [.queued, .queued])
        #expect(try sandbox.library.uploads.copyStatus(ofDocument: documents[0].number) == .waiting)

        let worker = UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:])
        let report = await worker.runPass()
        #expect(report.entries.map(\.outcome) == [.done, .done])
        #expect(report.entries.map(\.uploaded) == [3, 3])
        try sandbox.expectUploaded(to: copy)
        #expect(FileManager.default.fileExists(atPath: copy.appendingPathComponent("Kari Nordmann/Dokumenter/\(documents[0].title).docx").path))
        #expect(FileManager.default.fileExists(atPath: copy.appendingPathComponent("Kari Nordmann/Bilder/\(documents[1].title).pdf").path))
        for document in documents { #expect(try sandbox.library.uploads.copyStatus(ofDocument: document.number) == .copied) }
        #expect(try sandbox.library.uploads.uploadJobs().allSatisfy { $0.state == .done && $0.attempts == 0 && $0.lastError == nil })

        // Nothing is due any more; a done job cannot be retried.
        #expect(await worker.runPass(includeWaiting: true).entries.isEmpty)
        let first = try #require(try sandbox.library.uploads.uploadJobs().first)
        #expect(throws: LibraryFailure.self) { try sandbox.library.uploads.retryUpload(first.id) }
        #expect(throws: LibraryFailure.self) { try sandbox.library.uploads.retryUpload(9_999) }

        // A document filed later is uploaded by the next pass; its files are all the pass copies.
        try sandbox.fileDocuments(1, destination: "folder:\(copy.path)", person: "Ola Nordmann")
        let later = await worker.runDueJobs()
        #expect(later.entries.map(\.outcome) == [.done])
        #expect(later.entries.first?.uploaded == 3)
        try sandbox.expectUploaded(to: copy)
    }

    @Test func anArchiveFileChangedInPlaceIsSentAgainEvenWithItsOldSizeAndTime() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let copy = try sandbox.folder("Kopi")
        let documents = try sandbox.fileDocuments(1, destination: "folder:\(copy.path)")
        let worker = UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:])
        #expect(await worker.runPass().entries.map(\.uploaded) == [3])

        // The .docx is written over with other bytes of the same size, its modification time set
        // back: the content the library knew no longer holds, and the copy must see it.
        let docx = try #require(try sandbox.uploadFiles().first { $0.relativePath.hasSuffix(".docx") })
        var before = stat()
        #expect(lstat(docx.path, &before) == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: docx.path))
        try Data(bytes.map { $0 ^ 0xFF }).write(to: URL(fileURLWithPath: docx.path))
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, docx.path, &times, 0) == 0)
        try sandbox.library.uploads.queueCopies(of: [documents[0].number])

        let again = await worker.runPass()
        #expect(again.entries.map(\.outcome) == [.done])
        #expect(again.entries.map(\.uploaded) == [1], "only the changed file is sent")
        #expect(again.entries.map(\.unchanged) == [2])
        try sandbox.expectUploaded(to: copy)
    }

    @Test func aWatchingThreadCanUploadAFewJobsBetweenDocuments() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let copy = try sandbox.folder("Kopi")
        try sandbox.fileDocuments(3, destination: "folder:\(copy.path)")
        let worker = UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:])
        // As `watch` does: on its own thread, outside Swift concurrency.
        let first = await withCheckedContinuation { (continuation: CheckedContinuation<UploadReport, Never>) in
            Thread { continuation.resume(returning: worker.runDueJobsAndWait(maxJobs: 1)) }.start()
        }
        #expect(first.entries.map(\.outcome) == [.done])
        #expect(try sandbox.library.uploads.uploadJobs().map(\.state) == [.done, .queued, .queued])
        #expect(try sandbox.library.uploads.uploadQueueStatus().pending == 2)
        let rest = await worker.runDueJobs()
        #expect(rest.entries.map(\.outcome) == [.done, .done])
        let status = try sandbox.library.uploads.uploadQueueStatus()
        #expect(status.pending == 0 && status.failed == 0 && status.nextDue == nil)
        try sandbox.expectUploaded(to: copy)
    }

    @Test func aJobLeftUploadingByACrashIsTakenUpAgain() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let copy = try sandbox.folder("Kopi")
        try sandbox.fileDocuments(1, destination: "folder:\(copy.path)")
        let job = try #require(try sandbox.library.uploads.uploadJobs().first)
        // A process takes the job and dies.
        #expect(try sandbox.library.uploads.claimUpload(job.id)?.state == .uploading)
        #expect(try sandbox.library.uploads.claimUpload(job.id) == nil, "a job being uploaded is not taken twice")
        #expect(try sandbox.library.uploads.dueUploads().isEmpty, "not stale yet by age")
        #expect(try sandbox.library.uploads.dueUploads(now: Date().addingTimeInterval(61)) == [job.id], "stale after a minute")

        // A new worker holds the upload lock, so the job is known to be orphaned.
        let report = await UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:]).runPass()
        #expect(report.entries.map(\.outcome) == [.done])
        try sandbox.expectUploaded(to: copy)
    }

    @Test func aFolderThatIsNotThereIsRetriedAndNotMade() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let away = sandbox.directory.appendingPathComponent("USB-disk")
        try sandbox.fileDocuments(2, destination: "folder:\(away.path)")
        let report = await UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:]).runPass()
        #expect(report.entries.map(\.outcome) == [.retrying, .retrying])
        #expect(report.entries.first?.message?.norwegian.contains("Er disken koblet til?") == true)
        #expect(!FileManager.default.fileExists(atPath: away.path))
        let jobs = try sandbox.library.uploads.uploadJobs()
        #expect(jobs.map(\.attempts) == [1, 1])
        #expect(jobs.allSatisfy { $0.state == .queued && $0.nextAttemptAt != nil })
        #expect(try sandbox.library.uploads.dueUploads(includeWaiting: true).count == 2)

        // Once the disk is there, `queue retry --all` and a pass finish the job.
        try FileManager.default.createDirectory(at: away, withIntermediateDirectories: true)
        #expect(try sandbox.library.uploads.retryAllUploads() == 2)
        #expect(try sandbox.library.uploads.uploadJobs().map(\.attempts) == [0, 0])
        #expect(await UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:]).runPass().entries.map(\.outcome) == [.done, .done])
        try sandbox.expectUploaded(to: away)
    }

    // MARK: WebDAV

    @Test func webdavUploadsCreatesFoldersAndASecondUploadSkips() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let served = try sandbox.folder("served")
        try FileManager.default.createDirectory(at: served.appendingPathComponent("Arkiv"), withIntermediateDirectories: true)
        let server = try Server.webdav(serving: served, log: sandbox.directory.appendingPathComponent("rclone.log"))
        defer { server.stop() }
        try sandbox.fileDocuments(2, destination: "webdav:\(server.url)/Arkiv")

        let report = await UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:]).runPass()
        #expect(report.entries.map(\.outcome) == [.done, .done], "\(report.entries.map { $0.message?.english ?? "" })")
        #expect(report.entries.map(\.uploaded) == [3, 3])
        try sandbox.expectUploaded(to: served.appendingPathComponent("Arkiv"))
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: served.appendingPathComponent("Arkiv/Kari Nordmann/Bilder").path, isDirectory: &isFolder))
        #expect(isFolder.boolValue)

        // Uploading the same files again sends nothing; a changed remote file (same size) is replaced.
        let destination = WebDAVDestination(base: try #require(URL(string: "\(server.url)/Arkiv")), credentials: nil)
        let files = try sandbox.uploadFiles()
        for file in files { #expect(try await destination.upload(file) == .unchanged) }
        let remote = served.appendingPathComponent("Arkiv").appendingPathComponent(files[0].relativePath)
        var bytes = try Data(contentsOf: remote)
        bytes[10] ^= 0xFF
        try bytes.write(to: remote)
        #expect(try await destination.upload(files[0]) == .uploaded)
        try sandbox.expectUploaded(to: served.appendingPathComponent("Arkiv"))
        await destination.close()
    }

    @Test func aRefusedLoginKeepsTheJobQueuedAndSaysToLogInAgain() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let served = try sandbox.folder("served")
        let server = try Server.webdav(serving: served, user: "kari", password: "hemmelig",
                                       log: sandbox.directory.appendingPathComponent("rclone.log"))
        defer { server.stop() }
        try sandbox.fileDocuments(2, destination: "webdav:\(server.url)/")
        let notified = sandbox.directory.appendingPathComponent("varsel.txt")
        try sandbox.library.setSetting(.notify, try notifyScript(in: sandbox, output: notified))

        let wrong = UploadWorker(store: AsyncLibrary(sandbox.library),
                                 environment: ["ARKIVATOR_WEBDAV_USER": "kari", "ARKIVATOR_WEBDAV_PASSWORD": "feil"])
        let report = await wrong.runPass()
        #expect(report.entries.map(\.outcome) == [.waitingForLogin, .waitingForLogin])
        #expect(report.entries.allSatisfy { $0.failure == .authentication })
        #expect(report.entries.first?.message?.norwegian.contains("Logg inn på nytt") == true)
        #expect(report.entries.first?.message?.english.contains("Log in again") == true)
        let jobs = try sandbox.library.uploads.uploadJobs()
        #expect(jobs.allSatisfy { $0.state == .queued && $0.attempts == 0 }, "a refused login uses up no try")
        #expect(jobs.allSatisfy { ($0.lastError ?? "").contains("Logg inn på nytt") || ($0.lastError ?? "").contains("Log in again") })
        #expect(try sandbox.library.uploads.dueUploads().isEmpty, "the next try waits")
        #expect(try sandbox.library.uploads.copyStatus(ofDocument: jobs[0].documentNumber) == .waiting)
        // The person is told once, not once per job or per pass.
        #expect(notifications(notified).count == 1)
        _ = await wrong.runPass(includeWaiting: true)
        #expect(notifications(notified).count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: served.path).isEmpty)

        // With the right password the same jobs go through.
        let right = UploadWorker(store: AsyncLibrary(sandbox.library),
                                 environment: ["ARKIVATOR_WEBDAV_USER": "kari", "ARKIVATOR_WEBDAV_PASSWORD": "hemmelig"])
        #expect(await right.runPass(includeWaiting: true).entries.map(\.outcome) == [.done, .done])
        try sandbox.expectUploaded(to: served)
    }

    @Test func aFullServerSaysTheDestinationIsFull() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let served = try sandbox.folder("served")
        let server = try Server.webdav(serving: served, log: sandbox.directory.appendingPathComponent("rclone.log"))
        defer { server.stop() }
        let proxy = try Server.faults(before: server, ["--insufficient-storage"], log: sandbox.directory.appendingPathComponent("proxy.log"))
        defer { proxy.stop() }
        try sandbox.fileDocuments(1, destination: "webdav:\(proxy.url)/")

        let report = await UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:]).runPass()
        let entry = try #require(report.entries.first)
        #expect(entry.outcome == .retrying)
        #expect(entry.failure == .full)
        #expect(entry.message?.norwegian.contains("Målet er fullt") == true)
        #expect(entry.message?.english.contains("The destination is full") == true)
        #expect(entry.job.attempts == 1)
        #expect(entry.job.state == .queued)
    }

    @Test func serverErrorsAreRetriedUntilTheJobIsDone() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let served = try sandbox.folder("served")
        let server = try Server.webdav(serving: served, log: sandbox.directory.appendingPathComponent("rclone.log"))
        defer { server.stop() }
        let proxyLog = sandbox.directory.appendingPathComponent("proxy-requests.log")
        let proxy = try Server.faults(before: server, ["--fail-500", "3", "--log", proxyLog.path],
                                      log: sandbox.directory.appendingPathComponent("proxy.log"))
        defer { proxy.stop() }
        try sandbox.fileDocuments(1, destination: "webdav:\(proxy.url)/")

        let started = Date()
        // A long deadline: the pass ends as soon as nothing is pending (a busy machine only delays it).
        let report = await UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:]).run(until: Date().addingTimeInterval(600))
        let elapsed = Date().timeIntervalSince(started)
        #expect(report.entries.map(\.outcome) == [.retrying, .retrying, .retrying, .done])
        let job = try #require(try sandbox.library.uploads.uploadJobs().first)
        #expect(job.state == .done)
        #expect(job.attempts == 3)
        // Tries at 0, 1, 3 and 7 s.
        #expect(elapsed > 6, "\(elapsed) s")
        try sandbox.expectUploaded(to: served)
        let statuses = notifications(proxyLog).map { $0.split(separator: " ").last.map(String.init) ?? "" }
        #expect(statuses.prefix(3) == ["500", "500", "500"])
        #expect(statuses.contains("201"))
    }

    @Test func aServerDownForTheFirst20SecondsGetsEveryJobDone() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let served = try sandbox.folder("served")
        let server = try Server.webdav(serving: served, log: sandbox.directory.appendingPathComponent("rclone.log"))
        defer { server.stop() }
        let proxy = try Server.faults(before: server, ["--refuse-for", "20"], log: sandbox.directory.appendingPathComponent("proxy.log"),
                                      waitUntilUp: false)
        defer { proxy.stop() }
        try sandbox.fileDocuments(3, destination: "webdav:\(proxy.url)/")

        let started = Date()
        let report = await UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:]).run(until: Date().addingTimeInterval(600))
        let elapsed = Date().timeIntervalSince(started)
        let jobs = try sandbox.library.uploads.uploadJobs()
        #expect(jobs.allSatisfy { $0.state == .done }, "\(jobs.map { "\($0.state) \($0.lastError ?? "")" })")
        // Failed at 0, 1, 3, 7 and 15 s and through at 31 s; on a busy machine the waits stretch,
        // so fewer tries may fall inside the 20 s.
        // (A machine busy enough to start the worker late finds the server up already.)
        #expect(jobs.allSatisfy { (0...5).contains($0.attempts) }, "\(jobs.map(\.attempts))")
        if jobs.contains(where: { $0.attempts > 0 }) {
            #expect(elapsed > 10, "\(elapsed) s")
            #expect(report.entries.contains { $0.failure == .transient && $0.message?.english.contains("Could not reach") == true })
        }
        #expect(report.failed.isEmpty)
        try sandbox.expectUploaded(to: served)
        for job in jobs { #expect(try sandbox.library.uploads.copyStatus(ofDocument: job.documentNumber) == .copied) }
    }

    @Test func aDestinationThatStaysDownIsTriedForAsLongAsItTakesAndTheHouseholdIsTold() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let port = try Server.freePort()  // nothing listens there
        let documents = try sandbox.fileDocuments(1, destination: "webdav:http://127.0.0.1:\(port)/")
        let notified = sandbox.directory.appendingPathComponent("varsel.txt")
        // Waits of 0.05 s doubling up to 0.2 s, and the household told after 1 s (an hour by default).
        let policy = UploadPolicy(retryDelays: [0.05], longestDelay: 0.2, tellAfter: 1)
        let worker = UploadWorker(store: AsyncLibrary(sandbox.library), notify: try notifyScript(in: sandbox, output: notified),
                                  policy: policy, environment: [:])

        // On the uploads' own executor, as `serve` runs them: the back-off's sleeps do not wait for
        // a cooperative pool that other suites keep busy.
        let report = await UploadExecutor().task { await worker.run(until: Date().addingTimeInterval(2.5)) }.value
        #expect(report.entries.count > 6, "tried again and again: \(report.entries.count)")
        #expect(report.entries.allSatisfy { $0.outcome == .retrying })
        let job = try #require(try sandbox.library.uploads.uploadJobs().first)
        #expect(job.state == .queued, "never given up")
        #expect(job.lastError?.contains("Prøver igjen senere") == true || job.lastError?.contains("Trying again later") == true)
        #expect(job.failingSince != nil)
        #expect(try sandbox.library.uploads.copyStatus(ofDocument: documents[0].number) == .waiting)
        let lines = notifications(notified)
        #expect(lines.count == 1, "told once: \(lines)")
        #expect(lines.first?.contains("over en time") == true || lines.first?.contains("over an hour") == true)
        let state = try await Uploads(worker: worker).state(checkingDestinations: false)
        #expect(state.waiting.first?.longNotice(limit: 1) != nil, "Settings says it in words")

        // "Prøv igjen" puts it back, due now.
        try sandbox.library.uploads.retryUpload(job.id)
        let again = try #require(try sandbox.library.uploads.uploadJobs().first)
        #expect(again.state == .queued && again.attempts == 0 && again.lastError == nil)
    }

    // MARK: rclone

    @Test func rcloneDestinationUploadsAndSkipsWhatIsThere() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let served = try sandbox.folder("served")
        let server = try Server.webdav(serving: served, log: sandbox.directory.appendingPathComponent("rclone.log"))
        defer { server.stop() }
        try sandbox.fileDocuments(2, destination: "rclone::webdav,url='\(server.url)':Kopi")

        let report = await UploadWorker(store: AsyncLibrary(sandbox.library), environment: ProcessInfo.processInfo.environment).runPass()
        #expect(report.entries.map(\.outcome) == [.done, .done], "\(report.entries.map { $0.message?.english ?? "" })")
        #expect(report.entries.map(\.uploaded) == [3, 3])
        try sandbox.expectUploaded(to: served.appendingPathComponent("Kopi"))

        let destination = RcloneDestination(target: ":webdav,url='\(server.url)':Kopi")
        let files = try sandbox.uploadFiles()
        #expect(try await destination.upload(files[0]) == .unchanged)

        // A local rclone target, and an rclone that is not there.
        let local = try sandbox.folder("lokal")
        let localDestination = RcloneDestination(target: ":local:\(local.path)")
        #expect(try await localDestination.upload(files[1]) == .uploaded)
        #expect(try await localDestination.upload(files[1]) == .unchanged)
        #expect(FileManager.default.contents(atPath: local.appendingPathComponent(files[1].relativePath).path)
                == FileManager.default.contents(atPath: files[1].path))
        do {
            _ = try await RcloneDestination(target: ":local:/tmp", executable: "rclone", environment: ["PATH": "/nowhere"]).upload(files[1])
            Issue.record("a missing rclone must fail")
        } catch let failure as UploadFailure {
            #expect(failure.kind == .tool)
            #expect(failure.userMessage.norwegian.contains("apt-get install rclone"))
        }
    }

    @Test func aBusyWorkerLeavesThePassToTheOther() async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let copy = try sandbox.folder("Kopi")
        try sandbox.fileDocuments(1, destination: "folder:\(copy.path)")
        let lock = UploadLock.take(sandbox.library.location.directory)
        guard case .held = lock else {
            Issue.record("the lock should be free")
            return
        }
        let report = await UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:]).runPass()
        #expect(report.busy)
        #expect(report.entries.isEmpty)
        lock.release()
        #expect(await UploadWorker(store: AsyncLibrary(sandbox.library), environment: [:]).runPass().entries.map(\.outcome) == [.done])
    }
}
