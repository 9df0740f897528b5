import Foundation

/// What the sender asks of an upload's pages when it is handed over: all of them one letter
/// (`one`) or each page a letter of its own (`each`), in the order given (page numbers as sent,
/// first page first). Checked against the pages that arrived, never taken on trust: an order
/// must name each page sent exactly once.
struct UploadPlan: Sendable, Equatable, Decodable {
    enum Grouping: String, Sendable, Decodable {
        case one, each
    }

    var grouping: Grouping = .one
    /// The page numbers in the order the letter should have them; nil keeps the numbers' order.
    var order: [Int]?

    init(grouping: Grouping = .one, order: [Int]? = nil) {
        self.grouping = grouping
        self.order = order
    }

    private enum Keys: String, CodingKey { case grouping, order }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: Keys.self)
        grouping = try fields.decodeIfPresent(Grouping.self, forKey: .grouping) ?? .one
        order = try fields.decodeIfPresent([Int].self, forKey: .order)
    }

    /// The plan a form's `grouping` field asks for (`one` when absent); 400 for any other value.
    init(formValue: String?) throws {
        guard let value = formValue else { return }
        guard let grouping = Grouping(rawValue: value) else { throw WebError.badField("grouping") }
        self.grouping = grouping
    }

    /// The letters to make of the pages numbered `numbers`, each a list of page numbers in order.
    func letters(of numbers: [Int]) throws -> [[Int]] {
        let sorted = numbers.sorted()
        var ordered = sorted
        if let order {
            guard order.count == sorted.count, Set(order) == Set(sorted) else { throw Self.orderMismatch }
            ordered = order
        }
        return grouping == .one ? [ordered] : ordered.map { [$0] }
    }

    static let orderMismatch = WebError(.conflict, code: "badOrder",
        nb: "Rekkefølgen som ble sendt, passer ikke med sidene som kom fram. Velg sidene og send dem på nytt.",
        en: "The order sent does not match the pages that arrived. Choose the pages and send them again.")
}
