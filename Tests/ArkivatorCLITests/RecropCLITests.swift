import Foundation
import TestSupport
import Testing

/// `arkivator recrop`: its help teaches the corners, what cannot be a sheet is refused in words,
/// and `--show` says where a filed page came from and the outline stored for it.
@Suite struct RecropCLITests {
    @Test func theHelpTeachesTheCornersAndBadCornersAreRefusedInWords() throws {
        let help = try CLI.run(["recrop", "--help"])
        #expect(help.status == 0)
        for part in ["--corners", "--whole", "--turn", "--show", "øverst til venstre", "top left", "arkivator recrop 3fa2b1 --page 1 --corners"] {
            #expect(help.stdout.contains(part), "\(part) in \(help.stdout)")
        }
        try withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("bibliotek")
            let nothing = try CLI.run(["recrop", "abcdef"], library: library)
            #expect(nothing.status != 0 && nothing.stderr.contains("--corners"), "\(nothing.stderr)")
            let seven = try CLI.run(["recrop", "abcdef", "--corners", "1,2,3,4,5,6,7"], library: library)
            #expect(seven.status != 0 && seven.stderr.contains("åtte tall"), "\(seven.stderr)")
            let turn = try CLI.run(["recrop", "abcdef", "--turn", "45"], library: library)
            #expect(turn.status != 0 && turn.stderr.contains("0, 90, 180 eller 270"), "\(turn.stderr)")

            let ingest = try CLI.run(["ingest", "--json", Fixtures.url("photo2.jpg").path], library: library)
            let id = try #require(try CLI.records(ingest).first?["libraryId"] as? String)
            let show = try CLI.run(["recrop", id, "--show"], library: library)
            #expect(show.status == 0 && show.stdout.contains("photo2.jpg") && show.stdout.contains("Hjørner:"), "\(show.stdout)\(show.stderr)")
            let missing = try CLI.run(["recrop", id, "--page", "3", "--whole"], library: library)
            #expect(missing.status == 1 && missing.stderr.contains("ingen side 3"), "\(missing.stderr)")
            let crossed = try CLI.run(["recrop", id, "--corners", "0,0,100,100,100,0,0,100"], library: library)
            #expect(crossed.status == 1 && crossed.stderr.contains("danner ikke et ark"), "\(crossed.stderr)")
        }
    }
}
