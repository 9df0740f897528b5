import ArkivatorCore
import ArkivatorLibrary
import Foundation
import HTTPTypes
import Hummingbird
import Mustache

/// The pages' templates, their words and the stylesheet and scripts, loaded once from the
/// package's resources (`Resources/templates`, `Resources/strings.json`, `Resources/static`).
///
/// Every page is a Mustache template whose `{{value}}` is HTML-escaped: no HTML is made in Swift.
/// The fixed words of a page come from `strings.json` as `{{t.key}}` (Bokmål and English side by
/// side); words that hold a number or a name are made by the page's view model.
struct Templates: Sendable {
    let mustache: MustacheLibrary
    /// The words of each language, by key.
    let norwegian: [String: String]
    let english: [String: String]
    /// The stylesheet and scripts by file name, with their content type.
    let assets: [String: Asset]

    struct Asset: Sendable {
        let bytes: ByteBuffer
        let contentType: String
    }

    /// The resources folder inside the package's bundle.
    static var resources: URL {
        Bundle.module.bundleURL.appendingPathComponent("Resources", isDirectory: true)
    }

    static func load(from folder: URL = resources) throws -> Templates {
        var mustache = MustacheLibrary()
        let templateFolder = folder.appendingPathComponent("templates")
        for name in try FileManager.default.contentsOfDirectory(atPath: templateFolder.path) where name.hasSuffix(".mustache") {
            let text = try String(contentsOf: templateFolder.appendingPathComponent(name), encoding: .utf8)
            try mustache.register(text, named: String(name.dropLast(".mustache".count)))
        }
        let strings = try JSONDecoder().decode([String: [String]].self,
                                               from: Data(contentsOf: folder.appendingPathComponent("strings.json")))
        var norwegian: [String: String] = [:], english: [String: String] = [:]
        for (key, pair) in strings where pair.count == 2 {
            norwegian[key] = pair[0]
            english[key] = pair[1]
        }
        var assets: [String: Asset] = [:]
        let staticFolder = folder.appendingPathComponent("static")
        for name in try FileManager.default.contentsOfDirectory(atPath: staticFolder.path) {
            let type = name.hasSuffix(".css") ? "text/css; charset=utf-8"
                : name.hasSuffix(".json") ? "application/json"
                : name.hasSuffix(".png") ? "image/png"
                : name.hasSuffix(".webmanifest") ? "application/manifest+json" : "text/javascript; charset=utf-8"
            let data = try Data(contentsOf: staticFolder.appendingPathComponent(name))
            assets[name] = Asset(bytes: ByteBuffer(bytes: data), contentType: type)
        }
        return Templates(mustache: mustache, norwegian: norwegian, english: english, assets: assets)
    }

    /// The words of `language`, as templates see them (`{{t.key}}`).
    func words(_ language: UILanguage) -> [String: String] {
        language == .norwegian ? norwegian : english
    }

    /// A whole page: `template` (which fills the layout's blocks) over `model`, with the
    /// header, the menu and the words of the request's language.
    func page(_ template: String, title: String, model: Any = [String: String](), context: WebContext,
              status: HTTPResponse.Status = .ok, scripts: [String] = [], section: String? = nil) -> Response {
        let chrome = Chrome(title: title, lang: context.language.code, signedIn: context.session != nil,
                            owner: context.access?.isOwner == true, mayChange: context.access?.mayChange == true,
                            account: context.access.flatMap { $0.isOwner ? nil : $0.name },
                            csrf: context.session?.csrf ?? "", scripts: scripts.map { ["src": "/static/\($0)"] },
                            section: section.map { [$0: true] } ?? [:])
        let root: [String: Any] = ["page": chrome, "t": words(context.language), "m": model]
        var headers = HTTPFields()
        guard let html = mustache.render(root, withTemplate: template) else {
            // Not reachable with the package's resources (a test loads every template); said plainly if it happens.
            headers[.contentType] = "text/plain; charset=utf-8"
            return Response(status: .internalServerError, headers: headers, body: .init(byteBuffer: ByteBuffer(
                string: context.language.text("Siden mangler i denne installasjonen av Arkivator.", "The page is missing from this installation of Arkivator."))))
        }
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// What the layout shows around every page.
    struct Chrome {
        let title: String
        let lang: String
        let signedIn: Bool
        /// The owner's menu and actions (the household, settings, changes); an account sees its letters.
        let owner: Bool
        /// The text editor: the owner's and a family account's (not a reader's).
        let mayChange: Bool
        /// An account's name, beside «Logg ut»; nil for the owner.
        let account: String?
        /// The session's token for the forms in the header (sign out).
        let csrf: String
        let scripts: [[String: String]]
        /// The menu entry of this page, marked as current.
        let section: [String: Bool]
    }
}
