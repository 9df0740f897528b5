import ArkivatorCore
internal import CArkivatorPNG
import Foundation

/// A value in a PDF file (ISO 32000-1, 7.3): what ``PDFObjects`` reads.
indirect enum PDFValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case name(String)
    case string
    case array([PDFValue])
    case dictionary([String: PDFValue])
    case reference(Int)
    /// A stream: its dictionary and where its data starts in the file.
    case stream([String: PDFValue], start: Int)
    /// A content stream's operator (`cm`, `Do` …).
    case keyword(String)

    var number: Double? { if case .number(let value) = self { value } else { nil } }
    var int: Int? { number.flatMap { $0.isFinite && abs($0) < 1e12 ? Int($0) : nil } }
    var name: String? { if case .name(let value) = self { value } else { nil } }
    var array: [PDFValue]? { if case .array(let value) = self { value } else { nil } }
    var dictionary: [String: PDFValue]? {
        switch self {
        case .dictionary(let value), .stream(let value, _): value
        default: nil
        }
    }
}

/// A PDF's objects, found through its cross-reference tables or streams and read on demand: just
/// enough of PDF to find a scanned page's one picture and its stored bytes, which poppler-glib
/// does not give. Anything unexpected gives nil, and the page is drawn by poppler instead.
final class PDFObjects {
    let bytes: [UInt8]
    /// Where each object is: at an offset in the file, or the `index`th object in object stream `stream`.
    private var places: [Int: Place] = [:]
    private var trailer: [String: PDFValue] = [:]
    private var objectStreams: [Int: [Int: PDFValue]] = [:]
    /// The objects read so far, by their offset in the file (nil: unreadable): each place is read
    /// once however often it is named (a page tree's `/Kids` may name one large object many
    /// times, or many numbers the cross-reference puts at one offset).
    private var read: [Int: PDFValue?] = [:]
    /// The cross-reference sections read so far, by offset: each is read once, and at most 64.
    private var sectionsRead = Set<Int>()
    /// How many object streams are being opened inside one another (a stream's `/Length` may
    /// be an object in another stream); kept small so a chain of them cannot exhaust the stack.
    private var streamsOpening = 0

    private enum Place {
        case offset(Int)
        case inStream(Int, index: Int)
    }

    /// Reads the cross-reference sections from the last `startxref`; nil when they cannot be read.
    init?(_ bytes: [UInt8]) {
        self.bytes = bytes
        guard let keyword = Self.lastIndex(of: Array("startxref".utf8), in: bytes, within: 2048) else { return nil }
        var lexer = PDFLexer(bytes, at: keyword + 9)
        guard var next = lexer.value()?.int else { return nil }
        while next > 0, next < bytes.count, !sectionsRead.contains(next), sectionsRead.count < 64 {
            guard let previous = readSection(at: next) else { return nil }
            next = previous
        }
        guard !places.isEmpty else { return nil }
    }

    /// The catalog's page `index` (from 0) with what it inherits (`Resources`, `MediaBox`,
    /// `CropBox`, `Rotate`) filled in.
    func page(_ index: Int) -> [String: PDFValue]? {
        guard let root = resolve(trailer["Root"])?.dictionary, var node = resolve(root["Pages"])?.dictionary else { return nil }
        var inherited: [String: PDFValue] = [:]
        var skip = index
        for _ in 0..<32 {
            for key in ["Resources", "MediaBox", "CropBox", "Rotate"] where node[key] != nil { inherited[key] = node[key] }
            if node["Type"]?.name == "Page" {
                guard skip == 0 else { return nil }
                return node.merging(inherited) { own, _ in own }
            }
            guard let kids = resolve(node["Kids"])?.array else { return nil }
            var found = false
            for kid in kids {
                guard let child = resolve(kid)?.dictionary else { return nil }
                let count = child["Type"]?.name == "Page" ? 1 : (resolve(child["Count"])?.int ?? 0)
                if skip < count {
                    node = child
                    found = true
                    break
                }
                skip -= count
            }
            guard found else { return nil }
        }
        return nil
    }

    /// `value` itself, or the object it refers to.
    func resolve(_ value: PDFValue?) -> PDFValue? {
        guard case .reference(let number)? = value else { return value }
        return object(number)
    }

    /// Object `number`, nil when it is not found or cannot be read.
    func object(_ number: Int) -> PDFValue? {
        switch places[number] {
        case .offset(let offset)?:
            if let known = read[offset] { return known }
            var lexer = PDFLexer(bytes, at: offset)
            let value = lexer.indirectObject()?.value
            read[offset] = .some(value)
            return value
        case .inStream(let stream, let index)?:
            if objectStreams[stream] == nil {
                guard streamsOpening < 4 else { return nil }
                // Marked read before it is read: a stream whose `/Length` lies in itself finds nothing.
                objectStreams[stream] = [:]
                streamsOpening += 1
                defer { streamsOpening -= 1 }
                objectStreams[stream] = readObjectStream(stream) ?? [:]
            }
            return objectStreams[stream]?[index]
        case nil:
            return nil
        }
    }

    /// The stored (still encoded) bytes of a stream object, by its `/Length`.
    func storedData(_ value: PDFValue) -> ArraySlice<UInt8>? {
        guard case .stream(let dictionary, let start) = value, let length = resolve(dictionary["Length"])?.int,
              length >= 0, start + length <= bytes.count else { return nil }
        return bytes[start..<(start + length)]
    }

    /// A stream's data decoded, for the small streams PDF structure lives in: unfiltered or Flate
    /// (with PNG predictors), at most `limit` bytes.
    func decodedData(_ value: PDFValue, limit: Int = 16 << 20) -> [UInt8]? {
        guard let dictionary = value.dictionary, let stored = storedData(value) else { return nil }
        let filters = Self.filters(dictionary, resolve: resolve)
        if filters.isEmpty { return stored.count <= limit ? Array(stored) : nil }
        guard filters == ["FlateDecode"] else { return nil }
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        let result = stored.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return arkivator_inflate(base, buffer.count, limit, &out, &size)
        }
        guard result == 0, let out else { return nil }
        defer { free(out) }
        let inflated = Array(UnsafeBufferPointer(start: out, count: size))
        let parameters = resolve(dictionary["DecodeParms"])?.dictionary ?? [:]
        let predictor = resolve(parameters["Predictor"])?.int ?? 1
        guard predictor >= 10 else { return predictor == 1 ? inflated : nil }
        let columns = resolve(parameters["Columns"])?.int ?? 1, colors = resolve(parameters["Colors"])?.int ?? 1
        guard (1...32).contains(colors), (1...(1 << 20)).contains(columns) else { return nil }
        return Self.unpredict(inflated, rowBytes: columns * colors, pixelBytes: colors)
    }

    /// A stream's filters by name (`/Filter /X` or `/Filter [/X /Y]`).
    static func filters(_ dictionary: [String: PDFValue], resolve: (PDFValue?) -> PDFValue?) -> [String] {
        switch resolve(dictionary["Filter"]) {
        case .name(let name)?: [name]
        case .array(let names)?: names.compactMap { resolve($0)?.name }
        default: []
        }
    }

    // MARK: - Cross-reference sections

    /// Reads the section at `offset` (a table or a stream), keeping entries already known (a
    /// later section wins); returns the previous section's offset, 0 for none, nil when unreadable.
    private func readSection(at offset: Int) -> Int? {
        guard sectionsRead.count < 64, sectionsRead.insert(offset).inserted else { return nil }
        var lexer = PDFLexer(bytes, at: offset)
        if lexer.skipKeyword("xref") {
            while true {
                let mark = lexer.at
                guard let first = lexer.value()?.int, let count = lexer.value()?.int, first >= 0, count >= 0,
                      count < 10_000_000 else {
                    lexer.at = mark
                    break
                }
                for number in first..<(first + count) {
                    guard let position = lexer.value()?.int, lexer.value()?.int != nil,
                          case .keyword(let kind)? = lexer.value() else { return nil }
                    if kind == "n", places[number] == nil, position > 0 { places[number] = .offset(position) }
                }
            }
            guard lexer.skipKeyword("trailer"), let section = lexer.value()?.dictionary else { return nil }
            trailer.merge(section) { known, _ in known }
            if let hybrid = section["XRefStm"]?.int, !sectionsRead.contains(hybrid) { _ = readSection(at: hybrid) }
            return section["Prev"]?.int ?? 0
        }
        var streamLexer = PDFLexer(bytes, at: offset)
        guard let object = streamLexer.indirectObject()?.value, let dictionary = object.dictionary,
              dictionary["Type"]?.name == "XRef", let data = decodedData(object),
              let widths = dictionary["W"]?.array?.compactMap(\.int), widths.count == 3,
              widths.allSatisfy({ (0...8).contains($0) }) else { return nil }
        let size = dictionary["Size"]?.int ?? 0
        let index = dictionary["Index"]?.array?.compactMap(\.int) ?? [0, size]
        let entryBytes = widths.reduce(0, +)
        guard entryBytes > 0, index.count % 2 == 0 else { return nil }
        var at = 0
        func field(_ width: Int, default fallback: Int) -> Int {
            guard width > 0 else { return fallback }
            var value = 0
            for _ in 0..<width {
                value = value << 8 | Int(data[at])
                at += 1
            }
            return value
        }
        for pair in stride(from: 0, to: index.count, by: 2) {
            for number in index[pair]..<(index[pair] + max(0, index[pair + 1])) {
                guard at + entryBytes <= data.count else { return nil }
                let kind = field(widths[0], default: 1), second = field(widths[1], default: 0), third = field(widths[2], default: 0)
                guard places[number] == nil else { continue }
                if kind == 1, second > 0 { places[number] = .offset(second) }
                if kind == 2 { places[number] = .inStream(second, index: third) }
            }
        }
        trailer.merge(dictionary) { known, _ in known }
        return dictionary["Prev"]?.int ?? 0
    }

    /// The objects of object stream `number`, by their index in it.
    private func readObjectStream(_ number: Int) -> [Int: PDFValue]? {
        guard case .offset(let offset)? = places[number] else { return nil }
        var lexer = PDFLexer(bytes, at: offset)
        guard let stream = lexer.indirectObject()?.value, let dictionary = stream.dictionary,
              dictionary["Type"]?.name == "ObjStm", let count = dictionary["N"]?.int, let first = dictionary["First"]?.int,
              count >= 0, count < 1_000_000, let data = decodedData(stream) else { return nil }
        var header = PDFLexer(data, at: 0)
        var objects: [Int: PDFValue] = [:]
        // Each place in the stream read once, however many of its objects the header puts there.
        var byPlace: [Int: PDFValue?] = [:]
        for index in 0..<count {
            guard header.value()?.int != nil, let at = header.value()?.int, first + at < data.count else { return nil }
            if byPlace[first + at] == nil {
                var reader = PDFLexer(data, at: first + at)
                byPlace[first + at] = .some(reader.value())
            }
            objects[index] = byPlace[first + at] ?? nil
        }
        return objects
    }

    /// Undoes PNG row filters (PDF's predictors 10 to 15) on whole data.
    private static func unpredict(_ data: [UInt8], rowBytes: Int, pixelBytes: Int) -> [UInt8]? {
        guard rowBytes > 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(data.count)
        var above = [UInt8](repeating: 0, count: rowBytes)
        var at = 0
        while at + 1 + rowBytes <= data.count {
            let kind = data[at]
            var line = Array(data[(at + 1)..<(at + 1 + rowBytes)])
            for x in 0..<rowBytes {
                let left = x >= pixelBytes ? Int(line[x - pixelBytes]) : 0, up = Int(above[x])
                let corner = x >= pixelBytes ? Int(above[x - pixelBytes]) : 0
                let add: Int
                switch kind {
                case 0: add = 0
                case 1: add = left
                case 2: add = up
                case 3: add = (left + up) / 2
                case 4:
                    let p = left + up - corner, pa = abs(p - left), pb = abs(p - up), pc = abs(p - corner)
                    add = pa <= pb && pa <= pc ? left : pb <= pc ? up : corner
                default: return nil
                }
                line[x] = UInt8(truncatingIfNeeded: Int(line[x]) + add)
            }
            out += line
            above = line
            at += 1 + rowBytes
        }
        return out
    }

    private static func lastIndex(of needle: [UInt8], in bytes: [UInt8], within: Int) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        let lowest = max(0, bytes.count - within)
        var at = bytes.count - needle.count
        while at >= lowest {
            if bytes[at] == needle[0], Array(bytes[at..<(at + needle.count)]) == needle { return at }
            at -= 1
        }
        return nil
    }
}
