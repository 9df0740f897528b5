import ArgumentParser
import ArkivatorClassify
import ArkivatorCore
import ArkivatorApp
import Foundation

extension Arkivator {
    /// Classifies text that has already been extracted: type, date, person, institution, title.
    struct Classify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Klassifiser tekst som allerede er lest: type, dato, person, avsender og tittel. (Classify extracted text.)",
            discussion: """
                Les tekst fra filer, eller fra standard inn med «-». Familien i biblioteket brukes til å
                finne hvem brevet gjelder. Skriver ett JSON-objekt per fil.
                Reads text files, or standard input with '-'. One JSON object per file.
                """)

        @OptionGroup var libraryOptions: LibraryOptions

        @Argument(help: ArgumentHelp("Tekstfiler, eller - for standard inn. (Text files, or - for standard input.)", valueName: "FILE"))
        var files: [String]

        @Option(name: .long, help: ArgumentHelp("Bruk husstanden i denne JSON-fila i stedet for bibliotekets. (Use this household file instead of the library's.)", valueName: "FILE"))
        var family: String?

        func run() throws {
            let profiles = try family.map { try Household.profiles(fromFile: URL(fileURLWithPath: $0)) }
                ?? LibraryCommand.household(libraryOptions).family()
            let classifier = Classifier(family: profiles)
            let today = CalendarDate.today() ?? .fallback
            var failed = false
            for file in files {
                let text: String
                do {
                    if file == "-" {
                        text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                    } else {
                        text = try String(contentsOfFile: file, encoding: .utf8)
                    }
                } catch {
                    let shown = ShownName.of(file), why = ShownName.of(error.localizedDescription)
                    Terminal().error(UserMessage(nb: "Kunne ikke lese «\(shown)»: \(why)", en: "Could not read '\(shown)': \(why)"))
                    failed = true
                    continue
                }
                let result = classifier.classify(text, scanDate: today)
                print(ClassificationJSON.line(result, source: Redaction.redact(file)))
            }
            if failed { throw ExitCode(1) }
        }
    }
}

/// One line of JSON for a classification.
enum ClassificationJSON {
    static func line(_ classification: Classification, source: String) -> String {
        struct Line: Encodable {
            var source: String
            var classification: Classification
            func encode(to encoder: any Encoder) throws {
                try classification.encode(to: encoder)
                var c = encoder.container(keyedBy: Key.self)
                try c.encode(source, forKey: Key(stringValue: "source"))
            }
            struct Key: CodingKey {
                var stringValue: String
                init(stringValue: String) { self.stringValue = stringValue }
                var intValue: Int? { nil }
                init?(intValue: Int) { nil }
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(Line(source: source, classification: classification)))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
