import Foundation
import TestSupport
import Testing

/// `arkivator account …` and `arkivator audit` as the owner runs them at the machine.
@Suite struct AccountCLITests {
    func run(_ arguments: [String], library: URL) throws -> CLI.Output {
        try CLI.run(arguments + ["--library", library.path],
                    environment: ["ARKIVATOR_KEY": nil, "ARKIVATOR_LIBRARY": nil, "LANG": "nb_NO.UTF-8"])
    }

    @Test func inviteListTokenRemoveAndTheLog() throws {
        try withTemporaryDirectory { dir in
            #expect(try run(["family", "add", "Kari Nordmann"], library: dir).status == 0)
            let unknown = try run(["account", "invite", "Mormor", "--members", "Per"], library: dir)
            #expect(unknown.status == 1 && unknown.stderr.contains("«Per» er ikke med i familien"))
            let invite = try run(["account", "invite", "Mormor", "--members", "kari nordmann", "--address", "https://arkiv.hjemme.no/"],
                                 library: dir)
            #expect(invite.status == 0, "\(invite.stderr)")
            #expect(invite.stdout.contains("ser brevene til Kari Nordmann") && invite.stdout.contains("https://arkiv.hjemme.no/invitasjon/"))
            let list = try run(["account", "list"], library: dir)
            #expect(list.stdout.contains("Mormor") && list.stdout.contains("leser") && list.stdout.contains("invitert, ikke svart ennå"))
            let json = try run(["account", "list", "--json"], library: dir)
            let accounts = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(accounts.first?["members"] as? [String] == ["Kari Nordmann"] && accounts.first?["role"] as? String == "reader")
            let token = try run(["account", "token", "mormor"], library: dir)
            #expect(token.status == 0 && token.lines.last?.hasPrefix("ark_") == true)
            let removed = try run(["account", "remove", "Mormor"], library: dir)
            #expect(removed.status == 0 && removed.stdout.contains("logget ut overalt"))
            #expect(try run(["account", "remove", "Mormor"], library: dir).status == 1)
            let audit = try run(["audit"], library: dir)
            #expect(audit.stdout.contains("inviterte en konto") && audit.stdout.contains("fjernet en konto")
                    && audit.stdout.contains("laget en enhetsnøkkel") && audit.stdout.contains("maskinen"))
            let log = try run(["audit", "--json", "--account", "eier"], library: dir)
            let lines = try #require(try JSONSerialization.jsonObject(with: Data(log.stdout.utf8)) as? [[String: Any]])
            #expect(lines.count == 3 && lines.allSatisfy { $0["account"] as? String == "eier" })
        }
    }

    @Test func theOwnersChangesAtTheMachineAreInTheLogToo() throws {
        try withTemporaryDirectory { dir in
            let ingest = try run(["ingest", "--json", Fixtures.url("clean.png").path], library: dir)
            #expect(ingest.status == 0, "ingest: \(ingest.stderr)")
            let id = try #require(try CLI.records(ingest).compactMap { $0["libraryId"] as? String }.first)
            // Filed to no household member (there is none): in Ukjent person/, and so listed by `--person ukjent`.
            let unknown = try run(["list", "--person", "ukjent"], library: dir)
            #expect(unknown.status == 0 && unknown.stdout.contains(String(id.prefix(10))), "\(unknown.stdout) \(unknown.stderr)")
            #expect(try run(["edit", id, "--title", "2024-03-05 Brev fra sykehuset"], library: dir).status == 0)
            #expect(try run(["delete", id], library: dir).status == 0)
            #expect(try run(["restore", id], library: dir).status == 0)
            let link = try run(["share", "link", id], library: dir)
            #expect(link.status == 0, "\(link.stderr)")
            #expect(try run(["share", "revoke", "1"], library: dir).status == 0)
            let log = try run(["audit", "--json"], library: dir)
            let lines = try #require(try JSONSerialization.jsonObject(with: Data(log.stdout.utf8)) as? [[String: Any]])
            let actions = Set(lines.compactMap { $0["action"] as? String })
            #expect(["letterChanged", "deleted", "restored", "shareLinkMade", "shareLinkRevoked"].allSatisfy(actions.contains), "\(actions)")
            #expect(lines.allSatisfy { $0["device"] as? String == "maskinen" && $0["account"] as? String == "eier" })
            #expect(lines.contains { $0["action"] as? String == "deleted" && ($0["document"] as? String).map(id.hasPrefix) == true })
        }
    }
}
