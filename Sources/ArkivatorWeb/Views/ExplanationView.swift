import ArkivatorCore
import ArkivatorLibrary
import Foundation
import Mustache

/// «Forklar brevet» on the document page: the letter explained by the language model, marked as
/// the model's work, with the button that makes it (again); while it is being made, that; when
/// the model is off, a sentence that points to the settings page.
struct ExplanationView {
    let action: String
    let reload: String
    /// The model is off (`llm.enabled`): nothing can be made here.
    let off: Bool
    let running: Bool
    let failure: String?
    let made: Made?
    /// Whether the button is shown (the model is on, nothing is being made, the letter is not in the trash).
    let canAsk: Bool
    let button: String
    /// Sent with the button: make a new one in place of the one shown.
    let again: Bool
    /// Where the letter's text goes, and what is hidden first.
    let sendsTo: String?

    struct Made {
        /// «Laget av en språkmodell (<modellnavn>) – kan ta feil. Sjekk brevet.»
        let byModel: String
        let older: Bool
        let what: String
        let hasSteps: Bool
        let steps: [String]
        let deadline: String?
        let when: String
        let iso: String
    }

    /// What the page reads for the section.
    struct Facts: Sendable {
        var stored: StoredExplanation?
        var enabled: Bool
        var url: String?
        var maskNames: Bool
    }

    init(letter: String, facts: Facts, state: ExplanationJobs.State?, trashed: Bool, words: Words) {
        action = "/documents/\(letter)/explain"
        reload = "/documents/\(letter)#forklaring"
        off = !facts.enabled
        if case .running = state { running = true } else { running = false }
        if case .failed(let message, _) = state { failure = message.text(in: words.language) } else { failure = nil }
        made = facts.stored.map { stored in
            let explanation = stored.explanation
            return Made(
                byModel: words.text("Laget av en språkmodell (\(explanation.model)) – kan ta feil. Sjekk brevet.",
                                    "Made by a language model (\(explanation.model)) – it may be wrong. Check the letter."),
                older: stored.fromOlderText, what: explanation.what, hasSteps: !explanation.steps.isEmpty,
                steps: explanation.steps, deadline: explanation.deadline,
                when: words.text("Laget \(stored.shownTime).", "Made \(stored.shownTime)."), iso: stored.createdAt)
        }
        canAsk = facts.enabled && !running && !trashed
        again = made != nil
        button = made == nil ? words["explainButton"] : words["explainAgain"]
        let hidden = facts.maskNames ? words.text("fødselsnumre og husstandens navn", "national ID numbers and the household's names")
            : words.text("fødselsnumre", "national ID numbers")
        if let text = facts.url, let url = URL(string: text), !LocalAddress.isLocal(url: url) {
            let host = url.host ?? text
            sendsTo = words.text("Brevteksten sendes til språkmodellen på \(host); \(hidden) skjules først.",
                                 "The letter's text is sent to the language model at \(host); \(hidden) are hidden first.")
        } else {
            sendsTo = words.text("Brevteksten sendes til språkmodellen på denne maskinen; \(hidden) skjules først.",
                                 "The letter's text is sent to the language model on this machine; \(hidden) are hidden first.")
        }
    }
}

extension ExplanationView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "action": action
        case "reload": reload
        case "off": off
        case "quiet": off && made == nil && failure == nil
        case "running": running
        case "failure": failure
        case "made": made
        case "canAsk": canAsk
        case "button": button
        case "again": again
        case "sendsTo": sendsTo
        default: nil
        }
    }
}

extension ExplanationView.Made: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "byModel": byModel
        case "older": older
        case "what": what
        case "hasSteps": hasSteps
        case "steps": steps
        case "deadline": deadline
        case "when": when
        case "iso": iso
        default: nil
        }
    }
}
