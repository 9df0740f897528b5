import ArkivatorCore
import ArkivatorLibrary
import ArkivatorLLM
import ArkivatorSync
import ArkivatorPipeline
import Foundation

extension Household {
    /// The settings as they are now.
    public func settings() throws -> Settings {
        try Settings.read(library)
    }

    /// ``settings()`` from async code (the web app): read through ``store``.
    public func currentSettings() async throws -> Settings {
        try await store.read { try Settings.read($0) }
    }

    /// Checks `value` for `setting` and stores it; nil or an empty value removes the setting.
    ///
    /// Refused, with one sentence for `audience`: a destination arkivator cannot read, or cannot
    /// reach now (a folder that is not there or takes no file, a WebDAV server that does not
    /// answer or refuses the login, rclone missing or its remote not listable; see
    /// ``Destination/check(library:environment:timeout:)``); `llm.enabled` turned on with no
    /// `llm.url`, or with one on another machine not yet allowed; `llm.url` removed while the
    /// model is on; a switch that is not true or false, a time-out out of range, an empty model
    /// name or notify command.
    /// - Throws: ``SettingRefused``, or the library's error when the value cannot be stored.
    public func change(_ setting: Library.Setting, to value: String?,
                       for audience: SettingAudience) async throws -> SettingChange {
        let text = value?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let current = try await currentSettings()
        var change = SettingChange(setting: setting, stored: nil, note: nil, lettersToCopy: 0)
        if text.isEmpty {
            try SettingCheck.removal(of: setting, current: current, audience: audience)
        } else if setting == .destination {
            let destination = try SettingCheck.destination(text, audience: audience)
            try await SettingCheck.reachable(destination, library: location, environment: environment, audience: audience)
            change.stored = destination.description
            change.note = audience == .commandLine ? destination.setupNote(library: location) : nil
        } else {
            (change.stored, change.note) = try SettingCheck.value(text, for: setting, current: current, audience: audience)
        }
        let stored = change.stored
        change.lettersToCopy = try await store.write { library in
            try library.setSetting(setting, stored)
            guard setting == .destination, stored != nil else { return 0 }
            return try library.uploads.uploadQueueStatus().pending
        }
        return change
    }

    /// The language model's settings when the model is to be asked: when `flag` (`--llm`,
    /// `--no-llm`) says so, else when `llm.enabled` is on; nil when it is off.
    /// - Throws: ``LLMFailure`` when it is on but cannot be used: no `llm.url`, a server on
    ///   another machine not allowed, a key file others can read.
    public func languageModel(flag: Bool? = nil) throws -> LLMSettings? {
        let model = try settings().languageModel
        guard flag ?? model.enabled else { return nil }
        guard let url = model.url else { throw LLMFailure.notConfigured }
        let key = try LLMSettings.apiKey(libraryDirectory: location.directory, environment: environment)
        let settings = LLMSettings(url: url, model: model.model ?? LLMSettings.defaultModel, apiKey: key,
                                   allowRemote: model.allowRemote, maskNames: model.maskNames,
                                   timeout: model.timeout ?? LLMSettings.defaultTimeout)
        try settings.checkAllowed()
        return settings
    }
}
