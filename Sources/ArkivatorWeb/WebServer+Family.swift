import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdBcrypt

extension WebServer {
    /// The household: members with their fødselsnummer masked (`DDMMYY •••••`), shown whole only
    /// after the password is typed again, and then only in that one answer (never in an address).
    func addFamilyRoutes(to router: Router<WebContext>) {
        let library = self.library
        router.get("/family") { _, context -> Response in
            try Self.familyPage(library, problem: nil, revealed: nil, context: context)
        }
        router.post("/family/add") { request, context -> Response in
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            do {
                try library.family { try $0.add(name: form.value("name") ?? "", birthDate: form.value("born"),
                                                 fodselsnummer: form.value("fnr")) }
            } catch let error as any UserFacingError {
                return try Self.familyPage(library, problem: error.userMessage.text(in: context.language), revealed: nil,
                                           context: context, status: .badRequest)
            }
            return Response(status: .seeOther, headers: [.location: "/family"])
        }
        router.post("/family/{member}/edit") { request, context -> Response in
            guard let member = context.parameters.get("member", as: Int.self) else { throw HTTPError(.notFound) }
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            do {
                try library.family { try $0.update(id: member, birthDate: form.value("born"), fodselsnummer: form.value("fnr")) }
            } catch let error as FamilyError where error.errorCode == "notFound" {
                throw HTTPError(.notFound)
            } catch let error as any UserFacingError {
                return try Self.familyPage(library, problem: error.userMessage.text(in: context.language), revealed: nil,
                                           context: context, status: .badRequest)
            }
            return Response(status: .seeOther, headers: [.location: "/family"])
        }
        router.post("/family/{member}/remove") { _, context -> Response in
            try Self.removeMember(library, context)
            return Response(status: .seeOther, headers: [.location: "/family"])
        }
        router.post("/family/{member}/reveal") { request, context -> Response in
            guard let member = context.parameters.get("member", as: Int.self) else { throw HTTPError(.notFound) }
            let form = WebForm(String(buffer: try await request.body.collect(upTo: context.maxUploadSize)))
            let password = form["password"] ?? ""
            guard let hash = try library.webPasswordHash(),
                  await Self.offThread({ Bcrypt.verify(password, hash: hash) }) else {
                return try Self.familyPage(library, problem: context.text("Feil passord: nummeret vises ikke.",
                                                                          "Wrong password: the number is not shown."),
                                           revealed: nil, context: context, status: .unauthorized)
            }
            let number = try library.family { store -> String?? in
                guard let summary = try store.list().first(where: { $0.id == member }) else { return nil }
                return .some(try store.profiles().first { $0.name == summary.name }?.fodselsnummer?.digits)
            }
            guard let number else { throw HTTPError(.notFound) }
            return try Self.familyPage(library, problem: nil, revealed: number.map { (member, $0) }, context: context)
        }
    }

    static func familyPage(_ library: Library, problem: String?, revealed: (id: Int, number: String)?,
                           context: WebContext, status: HTTPResponse.Status = .ok) throws -> Response {
        let t = context.language
        guard let session = context.session else { throw HTTPError(.unauthorized) }
        let csrf = HTML.csrfField(session)
        let members = try library.family { try $0.list() }
        let rows = members.map { member -> String in
            let number: String
            if let revealed, revealed.id == member.id {
                number = "<strong>\(HTML.escape(revealed.number))</strong>"
            } else if member.maskedFnr != nil {
                number = """
                    \(HTML.escape(member.maskedFnr ?? ""))
                    <details><summary>\(t.text("Vis", "Show"))</summary>
                    <form method="post" action="/family/\(member.id)/reveal">\(csrf)
                    <label for="password-\(member.id)">\(t.text("Passordet ditt", "Your password"))</label>
                    <input id="password-\(member.id)" name="password" type="password" autocomplete="current-password" required>
                    <button type="submit">\(t.text("Vis fødselsnummer", "Show national ID number"))</button></form></details>
                    """
            } else {
                number = "–"
            }
            return """
                <tr><td><strong>\(HTML.escape(member.name))</strong></td>
                <td data-label="\(t.text("Født", "Born"))">\(HTML.escape(member.birthDate ?? "–"))</td>
                <td data-label="\(t.text("Fødselsnummer", "National ID number"))">\(number)</td>
                <td><details><summary>\(t.text("Endre", "Edit"))</summary>
                <form method="post" action="/family/\(member.id)/edit">\(csrf)
                <p><label for="born-\(member.id)">\(t.text("Fødselsdato", "Birth date"))</label><br>
                <input id="born-\(member.id)" name="born" type="date" value="\(HTML.escape(member.birthDate ?? ""))"></p>
                <p><label for="fnr-\(member.id)">\(t.text("Nytt fødselsnummer (tomt = behold)", "New national ID number (empty = keep)"))</label><br>
                <input id="fnr-\(member.id)" name="fnr" inputmode="numeric" autocomplete="off" maxlength="12"></p>
                <button type="submit">\(t.text("Lagre", "Save"))</button></form></details>
                <form method="post" action="/family/\(member.id)/remove" class="inline">\(csrf)
                <button type="submit" aria-label="\(t.text("Fjern", "Remove")) \(HTML.escape(member.name))">\(t.text("Fjern", "Remove"))</button></form></td></tr>
                """
        }.joined()
        let table = members.isEmpty ? "<p>\(t.text("Ingen i husstanden ennå.", "No one in the household yet."))</p>" : """
            <table><thead><tr><th scope="col">\(t.text("Navn", "Name"))</th><th scope="col">\(t.text("Født", "Born"))</th>
            <th scope="col">\(t.text("Fødselsnummer", "National ID number"))</th><th scope="col"></th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
        let body = """
            \(problem.map(HTML.problem) ?? "")
            <p>\(t.text("Brevene arkiveres i en mappe per person i husstanden. Fødselsnummeret gjør gjenkjenningen sikrere og lagres kryptert.",
                        "Letters are filed in one folder per household member. The national ID number makes matching surer and is stored encrypted."))</p>
            \(table)
            <h2>\(t.text("Legg til", "Add"))</h2>
            <form method="post" action="/family/add">\(csrf)
            <p><label for="name">\(t.text("Navn", "Name"))</label><br><input id="name" name="name" required maxlength="100"></p>
            <p><label for="born">\(t.text("Fødselsdato (valgfritt)", "Birth date (optional)"))</label><br><input id="born" name="born" type="date"></p>
            <p><label for="fnr">\(t.text("Fødselsnummer (valgfritt, 11 siffer)", "National ID number (optional, 11 digits)"))</label><br>
            <input id="fnr" name="fnr" inputmode="numeric" autocomplete="off" maxlength="12"></p>
            <p><button type="submit">\(t.text("Legg til", "Add"))</button></p>
            </form>
            """
        return HTML.page(t.text("Familie", "Family"), body: body, context: context, status: status)
    }
}
