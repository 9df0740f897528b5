/// A letter explained in plain Bokmål by a language model: what the letter is, what the person
/// must do, and by when. Made by `LetterExplainer` (its checks passed, names put back, every
/// fødselsnummer masked), kept with the letter by the library, shown marked as a model's work.
/// Printed by `arkivator explain --json` as `{"what", "steps": […], "deadline": "YYYY-MM-DD" or null, "model"}`.
public struct LetterExplanation: Sendable, Codable, Equatable {
    /// One or two sentences: what kind of letter it is, from whom, about what.
    public var what: String
    /// What the person must do, one step each (empty when the letter asks for nothing).
    public var steps: [String]
    /// `YYYY-MM-DD`: the date by which the person must act, as printed in the letter; nil when it
    /// gives none.
    public var deadline: String?
    /// The model that answered (the server's name for it, else the one asked for).
    public var model: String

    public init(what: String, steps: [String] = [], deadline: String? = nil, model: String) {
        self.what = what
        self.steps = steps
        self.deadline = deadline
        self.model = model
    }
}
