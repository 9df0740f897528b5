import ArgumentParser
import ArkivatorCore
import ArkivatorLLM
import ArkivatorApp
import ArkivatorSync
import Foundation
import Logging

/// Starts what `serve` runs beside the web app (``HouseholdBackground``): the inbox watched and
/// the uploads, both logged by ``ServeLog``; the language model announced when it is on.
enum ServeBackground {
    static func start(_ household: Household, terminal: Terminal, logger: Logger) throws -> HouseholdBackground {
        var model: LLMSettings?
        do {
            model = try household.languageModel()
            if let model { LLMCommand.announce(model, terminal: terminal) }
        } catch {
            // The web app still runs: letters are read by the rules until the model can be used.
            terminal.error(UserMessage(error: error))
        }
        let log = ServeLog(logger: logger)
        do {
            return try HouseholdBackground.start(household, languageModel: model,
                                                 event: { log.show($0) }, report: { log.show($0) },
                                                 problem: { terminal.error(UserMessage(error: $0)) })
        } catch {
            terminal.error(UserMessage(error: error))
            throw ExitCode(1)
        }
    }
}

/// What `serve` logs of its background work: one line per document filed and per upload, by id,
/// stage and code only (never a letter's text, a name, a title or a number: logs are often kept
/// and shared).
struct ServeLog: Sendable {
    let logger: Logger

    func show(_ event: Watcher.Event) {
        switch event {
        case .watching, .stopping:
            break
        case .resuming(let count):
            logger.info("inbox: taking up \(count) unfinished document(s)")
        case .filed(let record, _, _):
            if let failure = record.failure {
                logger.warning("inbox: document not filed, stage \(failure.stage.rawValue), code \(failure.errorCode)")
            } else {
                let review = record.classification?.needsReview.isEmpty == false ? ", waits for review" : ""
                logger.info("inbox: filed document \(record.libraryID ?? "-"), stage done, \(record.pages) page(s)\(review)")
            }
        case .finishedEarlier(_, _, let id, _):
            logger.info("inbox: filed document \(id), stage done (before a restart)")
        case .duplicate:
            logger.info("inbox: already in the library, stage duplicate")
        case .failed(_, let failure, let retryAt, _, _):
            let next = retryAt == nil ? ", moved to failed/" : ", tried again later"
            logger.warning("inbox: document failed, stage \(failure.stage.rawValue), code \(failure.errorCode)\(next)")
        case .problem(let message):
            logger.error("inbox: \(ShownName.of(message.english))")
        }
    }

    func show(_ report: UploadReport) {
        for entry in report.entries {
            let line = "upload: document \(entry.job.documentID), job \(entry.job.id), \(entry.outcome.rawValue)"
            if entry.outcome == .done {
                logger.info("\(line), \(entry.uploaded) file(s) sent")
            } else {
                logger.warning("\(line)\(entry.failure.map { ", \($0.rawValue)" } ?? "")")
            }
        }
        for problem in report.problems { logger.error("upload: \(ShownName.of(problem.english))") }
    }
}
