import ArkivatorCore
import ArkivatorLibrary
import Foundation

/// Brings one letter's copy in line now, after a change that must reach it before it is called
/// done (a redaction), and says in words where the change now stands and where the old content
/// may still be.
public enum CopyAfterChange {
    /// Runs a pass of the upload queue now (the letter's job is queued by the change) and tells
    /// what became of the letter's copy; nil when no destination is set. `worker` is the
    /// household's (``Uploads/worker``).
    public static func bringInLine(documentNumber: Int, worker: UploadWorker) async -> UserMessage? {
        let (store, environment) = (worker.store, worker.environment)
        guard let setting = try? await store.read({ try $0.setting(.destination) }), !setting.isEmpty else { return nil }
        var report = await worker.runPass(includeWaiting: true)
        if report.busy {
            // Another process is copying: wait for it a little, then try once more.
            try? await Task.sleep(nanoseconds: 2_000_000_000)
            report = await worker.runPass(includeWaiting: true)
        }
        let name = (try? Destination.parse(setting).displayName) ?? setting
        let status = (try? await store.read { try $0.uploads.copyStatus(ofDocument: documentNumber) }) ?? .waiting
        let versions = versionNote(setting, environment: environment)
        if status == .copied {
            return UserMessage(nb: "Kopien i \(name) er også erstattet.\(versions.map { " " + $0.norwegian } ?? "")",
                               en: "The copy in \(name) is replaced too.\(versions.map { " " + $0.english } ?? "")")
        }
        let reason = report.entries.last(where: { $0.job.documentNumber == documentNumber })?.message
        return UserMessage(
            nb: "Kopien i \(name) er IKKE erstattet ennå\(reason.map { " (\($0.norwegian))" } ?? ""): der står nummeret fortsatt. "
                + "Arkivator erstatter den av seg selv så snart \(name) svarer (eller kjør arkivator sync).\(versions.map { " " + $0.norwegian } ?? "")",
            en: "The copy in \(name) is NOT replaced yet\(reason.map { " (\($0.english))" } ?? ""): the number still stands there. "
                + "Arkivator replaces it by itself once \(name) answers (or run arkivator sync).\(versions.map { " " + $0.english } ?? "")")
    }

    /// Where a destination may keep the file's older content, and what to do about it.
    static func versionNote(_ setting: String, environment: [String: String]) -> UserMessage? {
        guard let destination = try? Destination.parse(setting) else { return nil }
        switch destination {
        case .folder:
            return UserMessage(
                nb: "Synkroniseres mappen til en skytjeneste (Dropbox, OneDrive, Google Drive), kan tjenesten ha eldre versjoner av filen: slett dem der.",
                en: "If the folder is synced to a cloud service (Dropbox, OneDrive, Google Drive), the service may keep older versions of the file: delete them there.")
        case .webdav:
            return UserMessage(
                nb: "Nextcloud og ownCloud tar vare på eldre versjoner og har papirkurv: åpne filen der, velg «Versjoner» og slett de eldre, og tøm papirkurven.",
                en: "Nextcloud and ownCloud keep older versions and a trash bin: open the file there, choose “Versions” and delete the older ones, and empty the trash bin.")
        case .rclone(let target):
            switch backend(of: target, environment: environment) {
            case "drive":
                return UserMessage(
                    nb: "Google Drive tar vare på eldre versjoner i opptil 30 dager: åpne filen i Google Drive, velg «Administrer versjoner» og slett de eldre.",
                    en: "Google Drive keeps older versions for up to 30 days: open the file in Google Drive, choose “Manage versions” and delete the older ones.")
            case "onedrive":
                return UserMessage(nb: "OneDrive tar vare på eldre versjoner: åpne filen i OneDrive, velg «Versjonslogg» og slett de eldre.",
                                   en: "OneDrive keeps older versions: open the file in OneDrive, choose “Version history” and delete the older ones.")
            case "dropbox":
                return UserMessage(nb: "Dropbox tar vare på eldre versjoner: åpne filen på dropbox.com, velg «Versjonslogg» og slett de eldre.",
                                   en: "Dropbox keeps older versions: open the file on dropbox.com, choose “Version history” and delete the older ones.")
            case "local", "alias", "crypt", "sftp", "smb", "ftp":
                return nil
            default:
                return UserMessage(nb: "Mange lagringstjenester tar vare på eldre versjoner av filer: se etter «versjoner» der og slett de eldre.",
                                   en: "Many storage services keep older versions of files: look for “versions” there and delete the older ones.")
            }
        }
    }

    /// The rclone backend of a target: `:drive,…:path` names it; a configured remote's type is
    /// read from `rclone listremotes --long`.
    static func backend(of target: String, environment: [String: String]) -> String? {
        if target.hasPrefix(":") {
            return String(target.dropFirst().prefix { $0.isLetter || $0.isNumber })
        }
        guard let colon = target.firstIndex(of: ":"), let program = ChildProcess.find("rclone", environment: environment),
              let result = try? ChildProcess.run(program, ["listremotes", "--long"], environment: environment, timeout: 10),
              result.status == 0 else { return nil }
        let name = String(target[..<colon]) + ":"
        for line in result.output.split(whereSeparator: \.isNewline) where line.hasPrefix(name) {
            return line.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}
