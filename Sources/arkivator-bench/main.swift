// arkivator-bench: the library's search benchmark (`make bench` runs it through scripts/bench/search_bench.py).
//
//     arkivator-bench --library DIR --docs docs.jsonl --queries queries.jsonl [--batch 5000]
//                     [--reuse] [--kind KIND] [--per-query PATH] [--no-lists]
//
// Indexes the documents (one JSON object per line: title, text, docType, person, familyMember,
// institution, specialty, documentDate, scanDate, keywords) into a new library with the same code
// `ingest` uses, then runs every query (query, person, type, from, to) through `Library.search`
// and prints one JSON object: index seconds, latency percentiles in milliseconds, per query kind, and
// the library pages' cost (count and a page of 50: first page, page 1,000, filters) under "lists".
// --kind runs only the queries of one kind; --per-query writes one JSON object per query (its
// text, kind, filter, milliseconds in all and per step, hits and their ids, matches) to PATH; --no-lists leaves
// the library pages out.
import ArkivatorClassify
import ArkivatorCore
import ArkivatorLibrary
import Foundation

struct BenchDocument: Decodable {
    var title: String
    var text: String
    var docType: String
    var person: String?
    var familyMember: String?
    var institution: String?
    var specialty: String?
    var documentDate: String
    var scanDate: String?
    var keywords: [String]
}

struct BenchQuery: Decodable {
    var query: String
    var kind: String?
    var person: String?
    var type: String?
    var from: String?
    var to: String?
}

func argument(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

func lines(_ path: String) -> [Data] {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    return data.split(separator: UInt8(ascii: "\n")).map { Data($0) }
}

/// A made-up SHA-256 for document `number`: its first digits spread as a real hash's are (so each
/// document has its own short id, and the web pages' links and thumbnails reach it), the number
/// itself at the end (so no two are the same).
func benchID(_ number: Int) -> String {
    var mixed = UInt64(number) &+ 0x9E37_79B9_7F4A_7C15
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    mixed ^= mixed >> 31
    let head = String(mixed, radix: 16)
    return String(repeating: "0", count: 16 - head.count) + head + String(format: "%048x", number)
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
}

/// What a library page costs the library: `count(filter)` and then `list(filter, limit: 50, offset:)`, as the
/// web's library page asks, each page timed `runs` times; percentiles in milliseconds per page.
func listTimings(_ library: Library, documents: [LibraryDocument], runs: Int = 200) throws -> [String: [String: Double]] {
    let members = Dictionary(grouping: documents.compactMap(\.familyMember), by: { $0 }).mapValues(\.count)
    let member = members.max { $0.value < $1.value }?.key
    let year = documents.map { String($0.documentDate.prefix(4)) }.max() ?? "2024"
    var pages: [(name: String, filter: DocumentFilter, offset: Int)] = [
        ("first page", DocumentFilter(), 0),
        ("page 1000", DocumentFilter(), 49_950),
        ("type epikrise", DocumentFilter(type: .epikrise), 0),
        ("one year", DocumentFilter(from: CalendarDate(iso: "\(year)-01-01"), to: CalendarDate(iso: "\(year)-12-31")), 0),
        ("review queue", DocumentFilter(waitingForReview: true), 0),
        ("without person", DocumentFilter(withoutPerson: true), 0),
    ]
    if let member { pages.append(("person", DocumentFilter(person: member), 0)) }
    var result: [String: [String: Double]] = [:]
    for page in pages {
        var times: [Double] = []
        var shown = 0, total = 0
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            total = try library.documents.count(page.filter)
            shown = try library.documents.list(page.filter, limit: 50, offset: page.offset).count
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        let sorted = times.sorted()
        result[page.name] = ["p50ms": percentile(sorted, 0.5), "p95ms": percentile(sorted, 0.95),
                             "p99ms": percentile(sorted, 0.99), "total": Double(total), "shown": Double(shown)]
    }
    return result
}

runCopyBenchIfAsked()
guard let libraryPath = argument("--library"), let docsPath = argument("--docs"), let queriesPath = argument("--queries") else {
    fail("usage: arkivator-bench --library DIR --docs docs.jsonl --queries queries.jsonl [--batch N]")
}
let batch = Int(argument("--batch") ?? "") ?? 5_000
let location = LibraryLocation(directory: URL(fileURLWithPath: libraryPath))
// --reuse: search an index an earlier run made (for trying query settings without re-indexing).
let reuse = CommandLine.arguments.contains("--reuse")
if FileManager.default.fileExists(atPath: libraryPath), !reuse { fail("\(libraryPath) exists: give a new folder") }

let decoder = JSONDecoder()
let documents: [LibraryDocument] = lines(docsPath).enumerated().compactMap { index, line in
    guard let document = try? decoder.decode(BenchDocument.self, from: line) else { return nil }
    return LibraryDocument(
        sha256: benchID(index + 1), sourceName: "bench-\(index + 1).jpg", title: document.title,
        docType: DocumentType(rawValue: document.docType) ?? .annet, person: document.person,
        familyMember: document.familyMember, institution: document.institution, specialty: document.specialty,
        documentDate: document.documentDate, scanDate: document.scanDate, keywords: document.keywords,
        ocrConfidence: 0.95, text: document.text)
}
let onlyKind = argument("--kind")
let queries: [BenchQuery] = lines(queriesPath).compactMap { try? decoder.decode(BenchQuery.self, from: $0) }
    .filter { onlyKind == nil || $0.kind == onlyKind }
let perQueryPath = argument("--per-query")
FileHandle.standardError.write(Data("indexing \(documents.count) documents…\n".utf8))

do {
    // With --reuse this opens an existing library: the time includes migrating it.
    let openStart = Date()
    let library = try Library.open(location, environment: ["ARKIVATOR_KEY": Data(repeating: 7, count: 32).base64EncodedString()])
    let openSeconds = Date().timeIntervalSince(openStart)
    let indexStart = Date()
    var done = 0
    if reuse { done = documents.count }
    while done < documents.count {
        let end = min(done + batch, documents.count)
        try library.documents.record(Array(documents[done..<end]))
        done = end
        FileHandle.standardError.write(Data("\r\(done)/\(documents.count)".utf8))
    }
    FileHandle.standardError.write(Data(" optimizing…".utf8))
    try library.optimize()
    let indexSeconds = Date().timeIntervalSince(indexStart)
    FileHandle.standardError.write(Data("\n".utf8))

    var latencies: [Double] = []
    var byKind: [String: [Double]] = [:]
    var empty = 0, refused = 0, capped = 0, errors: [String] = []
    var steps: [(total: Double, query: String, steps: [String: Double])] = []
    var perQuery: [Data] = []
    for query in queries {
        let filter = DocumentFilter(person: query.person, type: query.type.flatMap(DocumentType.init(rawValue:)),
                                    from: query.from.flatMap(CalendarDate.init(iso:)), to: query.to.flatMap(CalendarDate.init(iso:)))
        let start = DispatchTime.now().uptimeNanoseconds
        var line: [String: Any] = ["query": query.query, "kind": query.kind ?? "", "person": query.person ?? NSNull(),
                                   "type": query.type ?? NSNull(), "from": query.from ?? NSNull(), "to": query.to ?? NSNull()]
        do {
            let result = try library.index.search(query.query, filter: filter, limit: 20)
            if result.hits.isEmpty { empty += 1 }
            if result.capped { capped += 1 }
            steps.append((result.milliseconds.values.reduce(0, +), query.query, result.milliseconds))
            line["steps"] = result.milliseconds
            line["hits"] = result.hits.count
            line["total"] = result.total
            line["expression"] = result.expression
            line["ids"] = result.hits.map(\.id)
        } catch let failure as LibraryFailure where failure.code == .emptyQuery {
            refused += 1
        } catch {
            errors.append("\(query.query): \(error)")
        }
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        latencies.append(milliseconds)
        byKind[query.kind ?? "", default: []].append(milliseconds)
        if perQueryPath != nil {
            line["ms"] = milliseconds
            perQuery.append(try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]))
        }
    }
    if let perQueryPath {
        let data = perQuery.reduce(into: Data()) { $0 += $1 + Data("\n".utf8) }
        guard FileManager.default.createFile(atPath: perQueryPath, contents: data) else { fail("cannot write \(perQueryPath)") }
    }
    let sorted = latencies.sorted()
    for slow in steps.sorted(by: { $0.total > $1.total }).prefix(8) {
        let parts = slow.steps.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format: "%.1f", $0.value))" }
        FileHandle.standardError.write(Data("slow: \(slow.query) — \(parts.joined(separator: ", "))\n".utf8))
    }
    var sums: [String: Double] = [:]
    for entry in steps { for (key, value) in entry.steps { sums[key, default: 0] += value } }
    FileHandle.standardError.write(Data("step totals (ms): \(sums.mapValues { Int($0) })\n".utf8))
    let lists = CommandLine.arguments.contains("--no-lists") ? [:] : try listTimings(library, documents: documents)
    let size = (try? FileManager.default.attributesOfItem(atPath: library.databaseURL.path)[.size] as? Int) ?? 0
    let report: [String: Any] = [
        "documents": documents.count,
        "indexSeconds": indexSeconds,
        "openSeconds": openSeconds,
        "databaseMB": Double(size) / 1e6,
        "queries": queries.count,
        "p50ms": percentile(sorted, 0.50), "p90ms": percentile(sorted, 0.90), "p99ms": percentile(sorted, 0.99),
        "maxms": sorted.last ?? 0, "meanms": latencies.reduce(0, +) / Double(max(latencies.count, 1)),
        "noHits": empty, "refusedAsEmpty": refused, "capped": capped, "errors": errors,
        "byKind": byKind.mapValues { values -> [String: Double] in
            let s = values.sorted()
            return ["n": Double(s.count), "p50ms": percentile(s, 0.5), "p99ms": percentile(s, 0.99), "maxms": s.last ?? 0]
        },
        "lists": lists,
    ]
    let json = try JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])
    FileHandle.standardOutput.write(json + Data("\n".utf8))
} catch {
    fail("bench failed: \(UserMessage(error: error).text())")
}
