import Foundation
import TestSupport
import Testing
@testable import ArkivatorWeb

/// Rules of the web app's sources, checked on the sources themselves: pages come only from the
/// templates (no HTML in Swift strings), every template's words exist in both languages, and
/// no handler reaches the library except through ``AsyncLibrary`` (whose calls run on threads of
/// the library's own, never on the pool that serves requests).
@Suite struct WebSourceRulesTests {
    static var sources: URL { Fixtures.root.appendingPathComponent("Sources/ArkivatorWeb") }

    static func swiftFiles() throws -> [(name: String, text: String)] {
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
        return try files.filter { $0.pathExtension == "swift" }.map { ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8)) }
    }

    @Test func noPageIsBuiltOutsideTheTemplates() throws {
        let tag = try Regex(#""[^"\n]*<(html|body|main|form|div|p|li|ol|ul|table|tr|td|section|h[1-6]|a |img|input|button|span|strong|mark|label|select|option|details|nav)[ >]"#)
        for file in try Self.swiftFiles() {
            for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(tag) {
                Issue.record("\(file.name):\(number + 1) builds HTML in Swift: \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
    }

    /// A view model answers a template through `child(named name: String)`: there `case "name":
    /// name` hands back the method's own argument (the word «name»), never the model's name.
    @Test func noTemplateValueIsTheLookupsOwnArgument() throws {
        let shadowed = try Regex(#"case\s+"name"\s*:\s*name\b"#)
        for file in try Self.swiftFiles() {
            for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(shadowed) {
                Issue.record("\(file.name):\(number + 1) answers «name» with child(named:)'s argument; write self.name")
            }
        }
    }

    @Test func everyWordATemplateUsesIsThereInBothLanguages() throws {
        let templates = try Templates.load()
        let folder = Templates.resources.appendingPathComponent("templates")
        let key = try Regex(#"\{\{[#^/]?t\.([A-Za-z0-9_]+)"#)
        var used: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for match in text.matches(of: key) { used.insert(String(text[match.output[1].range!])) }
        }
        #expect(!used.isEmpty)
        for word in used.sorted() {
            #expect(templates.norwegian[word] != nil && templates.english[word] != nil, "\(word) is missing from strings.json")
        }
        #expect(Set(templates.norwegian.keys) == Set(templates.english.keys))
    }

    /// Every use of the library (a `Library` method on `library` or `$0`) stands inside a
    /// closure given to `store.read`, `store.write` or `store.files`, or inside a helper that
    /// takes the `Library` as a parameter and is itself called only inside such closures; and
    /// nothing in the web app keeps a `Library` of its own.
    @Test func noHandlerCallsTheLibrarySynchronously() throws {
        let files = try Self.swiftFiles()
        var violations: [String] = []
        // Helpers that take the library: their bodies may use it, their callers must be in a store closure.
        var helpers: [String: Set<Int>] = [:]
        var helperBodies: [String: [Range<Int>]] = [:]
        let helper = try Regex(#"func (\w+)\([^)]*: Library[,)]"#)
        for file in files {
            let text = Array(file.text.utf8)
            for match in file.text.matches(of: helper) {
                let name = String(file.text[match.output[1].range!])
                let from = file.text.utf8.distance(from: file.text.utf8.startIndex, to: match.range.upperBound.samePosition(in: file.text.utf8)!)
                if let body = Self.body(text, after: from) { helperBodies[file.name, default: []].append(body) }
                helpers[name, default: []].insert(0)
            }
            if file.text.contains(try Regex(#"(let|var) \w+: Library\b"#)) {
                violations.append("\(file.name) keeps a Library: the web app holds only an AsyncLibrary")
            }
        }
        for file in files {
            let text = Array(file.text.utf8)
            let source = file.text
            let bodies = helperBodies[file.name] ?? []
            for pattern in ["library.", "$0."] + helpers.keys.map({ $0 + "(" }) {
                var searchStart = source.startIndex
                while let found = source.range(of: pattern, range: searchStart..<source.endIndex) {
                    searchStart = found.upperBound
                    let offset = source.utf8.distance(from: source.utf8.startIndex, to: found.lowerBound.samePosition(in: source.utf8)!)
                    if pattern == "$0." && !Self.isLibraryCall(source[found.upperBound...]) { continue }
                    if Self.isDocumentation(text, offset) { continue }
                    if pattern.hasSuffix("(") {
                        // A helper's own declaration, or a longer name that ends the same way.
                        let before = offset > 0 ? text[offset - 1] : UInt8(ascii: " ")
                        if Character(UnicodeScalar(before)).isLetter || Character(UnicodeScalar(before)).isNumber { continue }
                        if source[..<found.lowerBound].hasSuffix("func ") { continue }
                        // A method of a value (`store.read(`, `handle.read(`) is not the helper: only
                        // `Helper(`, `Self.helper(` and `Type.helper(` are.
                        if before == UInt8(ascii: ".") {
                            let receiver = source[..<found.lowerBound].dropLast().reversed().prefix { $0.isLetter || $0.isNumber }
                            if receiver.last?.isUppercase != true { continue }
                        }
                    } else if bodies.contains(where: { $0.contains(offset) }) {
                        continue
                    }
                    if !Self.insideStoreClosure(text, offset) {
                        violations.append("\(file.name): \(Self.line(source, found.lowerBound))")
                    }
                }
            }
        }
        #expect(violations.isEmpty, "outside a store closure:\n\(violations.joined(separator: "\n"))")
    }

    /// The range from the first `{` after `offset` to its matching `}`.
    static func body(_ text: [UInt8], after offset: Int) -> Range<Int>? {
        guard let open = text[offset...].firstIndex(of: UInt8(ascii: "{")) else { return nil }
        var depth = 0
        for index in open..<text.count {
            if text[index] == UInt8(ascii: "{") { depth += 1 }
            if text[index] == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return open..<index }
            }
        }
        return nil
    }

    /// The names of the library's methods that handlers use through `$0`.
    static func isLibraryCall(_ rest: Substring) -> Bool {
        let name = rest.prefix { $0.isLetter || $0.isNumber }
        let libraryMethods: Set<Substring> = [
            "webPasswordHash", "setWebPasswordHash", "startWebSession", "webSession", "endWebSession", "endIdleWebSessions",
            "isAPIToken", "createAPIToken", "apiTokens", "revokeAPIToken", "redeemSignInLink", "createSignInLink",
            "document", "list", "count", "search", "edit", "delete", "restore", "redact", "markReviewed", "family",
            "setting", "setSetting", "isOn", "uploadJobs", "uploadJob", "retryUpload", "retryAllUploads", "backup",
            "allDocuments", "journal",
        ]
        // A call: the name followed by its arguments or a trailing closure (not a property such as `count`).
        let after = rest.dropFirst(name.count).drop { $0 == " " }
        return libraryMethods.contains(name) && (after.first == "(" || after.first == "{")
    }

    static func isDocumentation(_ text: [UInt8], _ offset: Int) -> Bool {
        var start = offset
        while start > 0, text[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        let line = String(decoding: text[start..<offset], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return line.hasPrefix("//")
    }

    /// Whether some `{` enclosing `offset` opens a closure passed to `store.read`, `store.write` or `store.files`.
    static func insideStoreClosure(_ text: [UInt8], _ offset: Int) -> Bool {
        var depth = 0, index = offset - 1
        while index >= 0 {
            switch text[index] {
            case UInt8(ascii: "}"): depth += 1
            case UInt8(ascii: "{"):
                if depth == 0 {
                    let before = String(decoding: text[max(0, index - 40)..<index], as: UTF8.self)
                    let trimmed = before.trimmingCharacters(in: CharacterSet(charactersIn: " ("))
                    if ["store.read", "store.write", "store.files"].contains(where: { trimmed.hasSuffix($0) }) { return true }
                } else {
                    depth -= 1
                }
            default: break
            }
            index -= 1
        }
        return false
    }

    static func line(_ source: String, _ at: String.Index) -> String {
        let start = source[..<at].lastIndex(of: "\n").map { source.index(after: $0) } ?? source.startIndex
        let end = source[at...].firstIndex(of: "\n") ?? source.endIndex
        return source[start..<end].trimmingCharacters(in: .whitespaces)
    }
}
