import ArgumentParser
import ArkivatorCore
import ArkivatorPipeline
import Foundation

extension Arkivator {
    /// Checks the installation: Tesseract, its language data and the OpenMP thread limit.
    struct Doctor: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sjekk at Tesseract, norsk språkdata og retningsgjenkjenning er installert. (Check the installation.)")

        @Flag(name: .long, help: "Skriv resultatet som JSON. (Print JSON.)")
        var json = false

        func run() throws {
            let report = Diagnostics.run()
            if json {
                print(report.jsonLine())
            } else {
                for check in report.checks {
                    print("\(check.ok ? "✔" : "✘") \(check.message)")
                }
            }
            if !report.ok { throw ExitCode(1) }
        }
    }
}
