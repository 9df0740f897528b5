import Foundation
import TestSupport
import Testing

/// A fødselsnummer printed in a letter stays in the letter's text: no title, no other JSON field,
/// no line a person sees, no family listing.
@Suite(.serialized) struct PrivacyTests {
    @Test func fodselsnummerOnlyInTheText() throws {
        let fnr = try #require(try Fixtures.json("clean.json")["fnr"] as? String)
        let truth = try Fixtures.text("clean.txt")
        try withTemporaryDirectory { dir in
            // The patient of the fixture letter is a household member with this number.
            let name = try #require(truth.split(separator: "\n").first { $0.hasPrefix("Pasient:") }
                .map { $0.dropFirst("Pasient:".count).split(separator: ",")[0].trimmingCharacters(in: .whitespaces) })
            let add = try CLI.run(["family", "add", name, "--fnr", fnr, "--library", dir.path])
            #expect(add.status == 0, "\(add.stderr)")
            let output = try CLI.run(["ingest", "--json", "--library", dir.path, Fixtures.url("clean.png").path])
            #expect(output.status == 0, "\(output.stderr)")
            var record = try #require(try CLI.records(output).first)
            #expect(record["familyMember"] as? String == name)
            #expect(record["containsFodselsnummer"] as? Bool == true)
            #expect((record["text"] as? String)?.filter(\.isNumber).contains(fnr) == true)
            record["text"] = nil
            let rest = String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self)
            #expect(!rest.contains(fnr))
            #expect(!rest.contains(fnr.suffix(5)))
            #expect(!output.stderr.contains(fnr))
            let human = try CLI.run(["ingest", "--library", dir.path, Fixtures.url("clean.png").path])
            #expect(!(human.stdout + human.stderr).contains(fnr))
            let list = try CLI.run(["family", "list", "--json", "--library", dir.path])
            #expect(!list.stdout.contains(fnr) && list.stdout.contains(String(fnr.prefix(6)) + " •••••"))
        }
    }
}
