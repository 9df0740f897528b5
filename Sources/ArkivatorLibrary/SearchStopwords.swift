import ArkivatorCore
import Foundation

/// Words a search skips when other words remain: the language's function words ("og", "til").
public enum SearchStopwords {
    public static let norwegian: Set<String> = {
        Stopwords.functionWords
    }()
}
