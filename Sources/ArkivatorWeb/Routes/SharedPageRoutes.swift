import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird

extension WebServer {
    /// A shared letter's page image: `/delt/<secret>/sider/<letter>/<page>`, the page as the share
    /// PDF holds it, every fødselsnummer under a box (never the archive's own image). Made with
    /// the PDF (``SharePackMaker``, on threads of its own, once for the link) and kept beside it,
    /// then streamed from the library's folder. An expired or revoked link answers as its page does.
    func addSharedPageImageRoute(shared: RouterGroup<WebContext>) {
        let store = self.store, templates = self.templates, household = self.household, sharePacks = self.sharePacks
        let logger = options.logger, throttle = shareThrottle
        shared.get("{token}/sider/{letter}/{page}") { _, context -> Response in
            let token = context.parameters.get("token") ?? ""
            let found = try await store.read { library in try library.sharing.sharedLetters(token: token) }
            guard case .open(let link, let letters) = found else { return await Self.sharedGone(found, templates: templates, context: context, throttle: throttle) }
            guard let letter = letters.first(where: { $0.shortID == context.parameters.get("letter") }),
                  let page = context.parameters.get("page", as: Int.self),
                  (1...max(1, ShareStore.sharedPageCount(letter))).contains(page), ShareStore.sharedPageCount(letter) > 0 else {
                throw WebError.notFound
            }
            do {
                _ = try await sharePacks.pdf(link: link.id, letters: letters, household: household)
            } catch {
                logger.error("share pages for link \(link.id): \(String(describing: type(of: error))) \(WebError.from(error).code)")
                throw WebError.notFound
            }
            let url = try await store.read { $0.sharing.sharePageURL(link.id, letters: letters, letter: letter.shortID, page: page) }
            guard let made = try await FileStream.body(url) else { throw WebError.notFound }
            var headers = HTTPFields()
            headers[.contentType] = "image/jpeg"
            return Self.withoutReferrer(Response(status: .ok, headers: headers, body: made.0))
        }
    }
}
