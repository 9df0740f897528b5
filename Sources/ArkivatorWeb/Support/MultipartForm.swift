import Foundation
import Hummingbird
import NIOCore

/// A `multipart/form-data` body (RFC 7578) read part by part as it arrives, so that a form full
/// of photos is never held whole: each part is handed on when it ends, a file up to
/// `fileLimit` bytes, a plain field up to ``fieldLimit``.
struct MultipartForm {
    struct Part: Sendable {
        let name: String
        /// The file's name as the browser sent it (perhaps empty); nil for a plain field.
        let filename: String?
        let bytes: [UInt8]
    }

    static let fieldLimit = 64 << 10
    static let headerLimit = 16 << 10
    /// `\r\n--BOUNDARY`: what ends each part (the body is read as if it began with `\r\n`).
    let delimiter: [UInt8]
    let fileLimit: Int
    let partLimit: Int

    init(boundary: String, fileLimit: Int, partLimit: Int) {
        delimiter = Array("\r\n--\(boundary)".utf8)
        self.fileLimit = fileLimit
        self.partLimit = partLimit
    }

    /// The boundary a `multipart/form-data` content type names; nil for any other type.
    static func boundary(of contentType: String) -> String? {
        let parameters = Self.parameters(contentType)
        guard parameters.first?.name.lowercased() == "multipart/form-data",
              let boundary = parameters.dropFirst().first(where: { $0.name.lowercased() == "boundary" })?.value,
              (1...70).contains(boundary.utf8.count) else { return nil }
        return boundary
    }

    static let cut = WebError(.badRequest, code: "incomplete", nb: "Opplastingen ble avbrutt før alt kom fram. Send sidene på nytt.",
                              en: "The upload was cut off before everything arrived. Send the pages again.")
    static let tooLarge = WebError(.contentTooLarge, code: "tooLarge",
                                   nb: "Et bilde er for stort (over \(WebServer.pageByteLimit >> 20) MB). Ta bildet på nytt med lavere oppløsning.",
                                   en: "An image is too large (over \(WebServer.pageByteLimit >> 20) MB). Take it again at a lower resolution.")

    private enum State {
        case preamble, afterDelimiter, headers
        case body(name: String, filename: String?)
        case done
    }

    /// Reads `body` to its end, calling `each` with every part in order.
    func read(_ body: RequestBody, each: (Part) async throws -> Void) async throws {
        var pending: [UInt8] = [13, 10]
        var data: [UInt8] = []
        var state = State.preamble
        var parts = 0
        for try await chunk in body {
            pending.append(contentsOf: chunk.readableBytesView)
            progress: while true {
                switch state {
                case .preamble:
                    guard let found = Self.find(delimiter, in: pending) else {
                        pending.removeFirst(max(0, pending.count - delimiter.count))
                        break progress
                    }
                    pending.removeFirst(found + delimiter.count)
                    state = .afterDelimiter
                case .afterDelimiter:
                    guard pending.count >= 2 else { break progress }
                    if pending[0] == UInt8(ascii: "-"), pending[1] == UInt8(ascii: "-") {
                        state = .done
                        break progress
                    }
                    guard pending[0] == 13, pending[1] == 10 else { throw WebError.badRequest }
                    pending.removeFirst(2)
                    state = .headers
                case .headers:
                    guard let end = Self.find(Array("\r\n\r\n".utf8), in: pending) else {
                        if pending.count > Self.headerLimit { throw WebError.badRequest }
                        break progress
                    }
                    let (name, filename) = try Self.disposition(String(decoding: pending[..<end], as: UTF8.self))
                    pending.removeFirst(end + 4)
                    parts += 1
                    guard parts <= partLimit else { throw WebError.badRequest }
                    data = []
                    state = .body(name: name, filename: filename)
                case .body(let name, let filename):
                    let limit = filename == nil ? Self.fieldLimit : fileLimit
                    guard let found = Self.find(delimiter, in: pending) else {
                        let keep = delimiter.count - 1
                        if pending.count > keep {
                            data.append(contentsOf: pending[..<(pending.count - keep)])
                            pending.removeFirst(pending.count - keep)
                        }
                        guard data.count <= limit else { throw filename == nil ? WebError.badRequest : Self.tooLarge }
                        break progress
                    }
                    data.append(contentsOf: pending[..<found])
                    pending.removeFirst(found + delimiter.count)
                    guard data.count <= limit else { throw filename == nil ? WebError.badRequest : Self.tooLarge }
                    let part = Part(name: name, filename: filename, bytes: data)
                    data = []
                    state = .afterDelimiter
                    try await each(part)
                case .done:
                    break progress
                }
            }
            if case .done = state { pending.removeAll() }
        }
        guard case .done = state else { throw Self.cut }
    }

    /// The field name and file name of a part's `Content-Disposition: form-data; name="…"; filename="…"`.
    static func disposition(_ headers: String) throws -> (name: String, filename: String?) {
        for line in headers.split(separator: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
            let parameters = Self.parameters(String(pair[1]))
            guard parameters.first?.name.lowercased() == "form-data",
                  let name = parameters.first(where: { $0.name.lowercased() == "name" })?.value else { break }
            return (name, parameters.first(where: { $0.name.lowercased() == "filename" })?.value)
        }
        throw WebError.badRequest
    }

    /// `type; key=value; key="quoted; value"` as (name, value) pairs, the type first with no value.
    static func parameters(_ header: String) -> [(name: String, value: String?)] {
        var result: [(name: String, value: String?)] = []
        var current = "", quoted = false, escaped = false
        var pieces: [String] = []
        for character in header {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ";" && !quoted {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        for piece in pieces {
            let pair = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pair[0].trimmingCharacters(in: .whitespaces)
            result.append((name, pair.count > 1 ? pair[1].trimmingCharacters(in: .whitespaces) : nil))
        }
        return result
    }

    /// Where `needle` first starts in `haystack`.
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
