/// Reads PDF values one at a time from bytes (ISO 32000-1, 7.2 and 7.3): numbers, names,
/// strings (skipped), arrays, dictionaries, references, indirect objects with their streams, and
/// a content stream's operators. Never reads past the end; nested values stop at a depth of 32.
struct PDFLexer {
    private let bytes: [UInt8]
    var at: Int

    init(_ bytes: [UInt8], at: Int) {
        self.bytes = bytes
        self.at = max(0, at)
    }

    var atEnd: Bool {
        mutating get {
            skipSpace()
            return at >= bytes.count
        }
    }

    /// `number generation obj value`, with a stream's data start when one follows.
    mutating func indirectObject() -> (number: Int, value: PDFValue)? {
        guard let number = integer(), integer() != nil, skipKeyword("obj"), let value = value() else { return nil }
        guard case .dictionary(let dictionary) = value, skipKeyword("stream") else { return (number, value) }
        // The data starts after the end of the `stream` line: CR LF or LF.
        if at < bytes.count, bytes[at] == 13 { at += 1 }
        if at < bytes.count, bytes[at] == 10 { at += 1 }
        return (number, .stream(dictionary, start: at))
    }

    /// Skips `word` if it comes next (as a whole word); false, having moved nothing but space, if not.
    mutating func skipKeyword(_ word: String) -> Bool {
        skipSpace()
        let letters = Array(word.utf8)
        guard at + letters.count <= bytes.count, Array(bytes[at..<(at + letters.count)]) == letters,
              at + letters.count == bytes.count || !Self.isRegular(bytes[at + letters.count]) else { return false }
        at += letters.count
        return true
    }

    /// The next value, nil at the end or at something unreadable.
    mutating func value(depth: Int = 0) -> PDFValue? {
        skipSpace()
        guard at < bytes.count, depth < 32 else { return nil }
        let byte = bytes[at]
        switch byte {
        case UInt8(ascii: "/"):
            at += 1
            return .name(nameBody())
        case UInt8(ascii: "("):
            return skipLiteralString() ? .string : nil
        case UInt8(ascii: "<"):
            if at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "<") {
                at += 2
                var dictionary: [String: PDFValue] = [:]
                while true {
                    skipSpace()
                    guard at + 1 < bytes.count else { return nil }
                    if bytes[at] == UInt8(ascii: ">"), bytes[at + 1] == UInt8(ascii: ">") {
                        at += 2
                        return .dictionary(dictionary)
                    }
                    guard case .name(let key)? = value(depth: depth + 1), let item = value(depth: depth + 1) else { return nil }
                    dictionary[key] = item
                }
            }
            guard let end = bytes[at...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            at = end + 1
            return .string
        case UInt8(ascii: "["):
            at += 1
            var items: [PDFValue] = []
            while true {
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: "]") {
                    at += 1
                    return .array(items)
                }
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
            }
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            guard let number = number() else { return nil }
            // `n g R` is a reference.
            if number >= 0, number == number.rounded(), number < 1e9 {
                let mark = at
                if integer() != nil, skipKeyword("R") { return .reference(Int(number)) }
                at = mark
            }
            return .number(number)
        default:
            guard Self.isRegular(byte) else { return nil }
            let start = at
            while at < bytes.count, Self.isRegular(bytes[at]) { at += 1 }
            let word = String(decoding: bytes[start..<at], as: UTF8.self)
            switch word {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            default: return .keyword(word)
            }
        }
    }

    // MARK: - Pieces

    private mutating func integer() -> Int? {
        skipSpace()
        guard at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) else { return nil }
        var value = 0
        while at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]), value < 1 << 40 {
            value = value * 10 + Int(bytes[at] - UInt8(ascii: "0"))
            at += 1
        }
        return value
    }

    private mutating func number() -> Double? {
        let start = at
        while at < bytes.count, Self.isRegular(bytes[at]) { at += 1 }
        return Double(String(decoding: bytes[start..<at], as: UTF8.self))
    }

    private mutating func nameBody() -> String {
        var name: [UInt8] = []
        while at < bytes.count, Self.isRegular(bytes[at]) {
            if bytes[at] == UInt8(ascii: "#"), at + 2 < bytes.count,
               let code = UInt8(String(decoding: bytes[(at + 1)...(at + 2)], as: UTF8.self), radix: 16) {
                name.append(code)
                at += 3
            } else {
                name.append(bytes[at])
                at += 1
            }
        }
        return String(decoding: name, as: UTF8.self)
    }

    private mutating func skipLiteralString() -> Bool {
        var depth = 0
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "\\"): at += 1
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 {
                    at += 1
                    return true
                }
            default: break
            }
            at += 1
        }
        return false
    }

    mutating func skipSpace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0, 9, 10, 12, 13, 32: at += 1
            case UInt8(ascii: "%"):
                while at < bytes.count, bytes[at] != 10, bytes[at] != 13 { at += 1 }
            default: return
            }
        }
    }

    /// Not white space and not a delimiter.
    static func isRegular(_ byte: UInt8) -> Bool {
        switch byte {
        case 0, 9, 10, 12, 13, 32: false
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["),
             UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "/"), UInt8(ascii: "%"): false
        default: true
        }
    }
}
