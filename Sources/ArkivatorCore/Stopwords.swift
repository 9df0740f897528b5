import Foundation

/// Norwegian stop words (`Resources/stopwords.json`): the language's function words in Bokmål
/// (`nb`) and Nynorsk (`nn`), and the words every letter holds (`letter`: "dato", "side" …).
/// The rules skip all of them; a search skips only the function words.
public enum Stopwords {
    /// The lists as shipped, by name.
    public static let lists: [String: [String]] = {
        guard let url = Bundle.module.url(forResource: "stopwords", withExtension: "json")
                ?? Bundle.module.url(forResource: "stopwords", withExtension: "json", subdirectory: "Resources"),
              let data = try? Data(contentsOf: url),
              let lists = try? JSONDecoder().decode([String: [String]].self, from: data) else { return [:] }
        return lists
    }()

    /// Every stop word, lower case.
    public static let all: Set<String> = Set(lists.values.joined().map { $0.lowercased() })

    /// Only the function words (`nb` and `nn`), lower case: what a search may leave out.
    public static let functionWords: Set<String> = Set(((lists["nb"] ?? []) + (lists["nn"] ?? [])).map { $0.lowercased() })
}
