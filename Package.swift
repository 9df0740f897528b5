// swift-tools-version:6.0
// Arkivator: paper letters in, a searchable per-person archive out.
// One target per pipeline stage; C libraries are wrapped once, in their own `C…` targets.
import PackageDescription

// The headers of poppler-glib, GLib, cairo and libheif (what `pkg-config --cflags poppler-glib
// libheif` says on Debian), for `CArkivatorCodecs`, which loads those libraries only when a PDF or a
// HEIC photo is read: through pkg-config they would be linked, and loaded at every start.
#if arch(arm64)
let multiarch = "aarch64-linux-gnu"
#else
let multiarch = "x86_64-linux-gnu"
#endif
let codecHeaders = ["/usr/include/poppler/glib", "/usr/include/poppler", "/usr/include/glib-2.0",
                    "/usr/lib/\(multiarch)/glib-2.0/include", "/usr/include/cairo", "/usr/include/pixman-1",
                    "/usr/include/freetype2", "/usr/include/libpng16", "/usr/include/\(multiarch)"]
let codecHeaderFlags = codecHeaders.map { "-I" + $0 }
/// For a Swift target that imports `CArkivatorCodecs` (or imports with `@testable` one that does).
let codecSwiftSettings: [SwiftSetting] = [.unsafeFlags(codecHeaderFlags.flatMap { ["-Xcc", $0] })]
// The stages that work on every word or pixel (cleanup, reading, rules) are optimized in a debug
// build too: the tests read hundreds of real pages with the debug program, which otherwise takes
// twice as long a page as the release program (10.4 s against 4.3 s, one typewritten page;
// optimized, as long). The cleanup's own pixel passes (marks, tone, the sheet's edges) took 1.9 s
// of a phone photo's page unoptimized, 0.35 s optimized. An optimized module and one that is not,
// across an import, load the modules the other imports internally: each Swift target gets the
// codecs' C headers (below), as the cleanup has them.
let fastInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "Arkivator",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "arkivator", targets: ["arkivator"]),
        .library(name: "ArkivatorPipeline", targets: ["ArkivatorPipeline"]),
        .library(name: "ArkivatorApp", targets: ["ArkivatorApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // C libraries, each wrapped once (module map + shim header only).
        // No pkg-config for Tesseract: its file adds -larchive -lcurl (for static linking), and -lcurl
        // is Debian's NSS build, a second libcurl with its own dozen libraries loaded at every start.
        .systemLibrary(name: "CTesseract", providers: [.apt(["libtesseract-dev"])]),
        .systemLibrary(name: "CLeptonica", pkgConfig: "lept", providers: [.apt(["libleptonica-dev"])]),
        // libwebp (which Leptonica reads WebP with): a large WebP page decoded as its planes.
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        // libheif (HEIC photos) and poppler-glib with cairo (PDF pages rendered in process), loaded
        // the first time they are needed (`dlopen`), through `lazy_` functions of the same signatures.
        .target(name: "CArkivatorCodecs", cSettings: [.unsafeFlags(codecHeaderFlags)], linkerSettings: [.linkedLibrary("dl")]),
        // The system's libcrypto (OpenSSL): SHA-256, AES-GCM and P-256, for ArkivatorCrypto only.
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libstemmer has no pkg-config file: the module map links it by name.
        .systemLibrary(name: "CStemmer", providers: [.apt(["libstemmer-dev"])]),
        // The FTS5 "norwegian" tokenizer (unicode61 + Snowball Norwegian), in C: SQLite calls it per token.
        .target(name: "CArkivatorFTS", dependencies: ["CSQLite", "CStemmer"]),
        // A large PNG, or a PDF picture stored as PNG stores its rows, read one row at a time through
        // libpng and zlib (which Leptonica and cairo use too):
        // libpng reports errors by a long jump, which only C can catch.
        .target(name: "CArkivatorPNG", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("dl")]),

        // Shared vocabulary: user-facing messages (nb/en), library location, small helpers,
        // and the domain's own types: document type, calendar date, fødselsnummer, family member,
        // stop words, the errors every stage reports.
        .target(name: "ArkivatorCore", dependencies: [
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ], resources: [.copy("Resources")]),
        // Digests, random bytes, the library's cipher and passkeys' signatures, over libcrypto.
        .target(name: "ArkivatorCrypto", dependencies: ["CLibCrypto"]),
        // Stage 1, ingest: find documents among files and folders, sniff, hash.
        .target(name: "ArkivatorIntake", dependencies: [
            "ArkivatorCore", "ArkivatorCrypto",
        ]),
        // Stage 2, cleanup: decode with limits (HEIC through libheif), sheet, deskew, light, binarise (Leptonica).
        .target(name: "ArkivatorImaging", dependencies: ["ArkivatorCore", "CLeptonica", "CArkivatorCodecs", "CWebP",
                                                        "CArkivatorPNG"], swiftSettings: codecSwiftSettings + fastInDebug),
        // Stage 3, OCR: Tesseract engines, orientation, words with confidence.
        .target(name: "ArkivatorOCR", dependencies: ["ArkivatorCore", "ArkivatorImaging", "CTesseract", "CLeptonica", "CArkivatorPNG"],
                swiftSettings: fastInDebug),
        // Stage 4, classify & title: document type, dates, institution, person, title (rules and data).
        .target(name: "ArkivatorClassify", dependencies: ["ArkivatorCore"], resources: [.copy("Resources")], swiftSettings: fastInDebug),
        // Stage 4, the optional LLM prompt: one structured request per document to an OpenAI-compatible
        // server (AsyncHTTPClient), fødselsnumre hidden, the answer checked against the text and merged
        // with the rules' result.
        .target(name: "ArkivatorLLM", dependencies: [
            "ArkivatorCore", "ArkivatorClassify",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ]),
        // Stage 5, write: .docx (own zip writer over libzip), page JPEGs, per-person folders, atomic writes.
        .target(name: "ArkivatorArchive", dependencies: ["ArkivatorCore", "CZip"]),
        // Stage 6, library: SQLite database with migrations, full-text index and search, the documents
        // and their archive files, family profiles with encrypted fødselsnummer.
        .target(name: "ArkivatorLibrary", dependencies: [
            "ArkivatorCore", "ArkivatorArchive", "ArkivatorCrypto", "CSQLite", "CArkivatorFTS",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // Orchestration: runs the stages per document, pages in parallel, progress; the page readers
        // kept for work on one page (re-reads, redactions, packs).
        .target(name: "ArkivatorPipeline", dependencies: [
            "ArkivatorCore", "ArkivatorIntake", "ArkivatorImaging", "ArkivatorOCR", "ArkivatorClassify",
            "ArkivatorLLM", "ArkivatorArchive", "ArkivatorLibrary",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ]),
        // The application: the one assembly (`Household`) that `ingest`, `watch` and `serve` share
        // (the library opened once with its async door, the household, the settings checked, the
        // pipeline factory, the upload queue), the watched folder, what `serve` runs beside the web
        // app, and the work a person asks of one letter (re-read, redact, correct, share, explain).
        .target(name: "ArkivatorApp", dependencies: [
            "ArkivatorCore", "ArkivatorIntake", "ArkivatorImaging", "ArkivatorOCR", "ArkivatorClassify",
            "ArkivatorLLM", "ArkivatorArchive", "ArkivatorLibrary", "ArkivatorSync", "ArkivatorPipeline",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ]),
        // Sync: the upload queue's worker and its destinations (folder, WebDAV, rclone).
        .target(name: "ArkivatorSync", dependencies: [
            "ArkivatorCore", "ArkivatorArchive", "ArkivatorLibrary",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ]),
        // The web app (`arkivator serve`): a thin shell over the library, like the command line.
        .target(name: "ArkivatorWeb", dependencies: [
            "ArkivatorCore", "ArkivatorIntake", "ArkivatorArchive", "ArkivatorLibrary", "ArkivatorSync", "ArkivatorPipeline",
            "ArkivatorApp", "ArkivatorClassify",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            .product(name: "HummingbirdTLS", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Mustache", package: "swift-mustache"),
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Resources")]),
        // The command-line shell over the pipeline.
        .executableTarget(name: "arkivator", dependencies: [
            "ArkivatorApp", "ArkivatorPipeline", "ArkivatorCore", "ArkivatorArchive", "ArkivatorClassify", "ArkivatorLLM", "ArkivatorLibrary",
            "ArkivatorSync", "ArkivatorWeb",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // The search benchmark (`make bench`): indexes synthetic letters, times queries.
        .executableTarget(name: "arkivator-bench", dependencies: ["ArkivatorLibrary", "ArkivatorClassify", "ArkivatorCore", "ArkivatorArchive", "ArkivatorSync"]),

        .testTarget(name: "ArkivatorCoreTests", dependencies: ["ArkivatorCore"]),
        .testTarget(name: "ArkivatorCryptoTests", dependencies: ["ArkivatorCrypto"]),
        .testTarget(name: "ArkivatorIntakeTests", dependencies: ["ArkivatorIntake", "TestSupport"]),
        .testTarget(name: "ArkivatorImagingTests", dependencies: ["ArkivatorImaging", "TestSupport"], swiftSettings: codecSwiftSettings),
        .testTarget(name: "ArkivatorOCRTests", dependencies: ["ArkivatorOCR", "ArkivatorImaging", "TestSupport"], swiftSettings: codecSwiftSettings),
        .testTarget(name: "ArkivatorPipelineTests", dependencies: [
            "ArkivatorPipeline", "ArkivatorImaging", "ArkivatorOCR", "ArkivatorIntake", "ArkivatorLibrary", "ArkivatorSync", "ArkivatorLLM",
            "TestSupport",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ]),
        .testTarget(name: "ArkivatorAppTests", dependencies: [
            "ArkivatorApp", "ArkivatorPipeline", "ArkivatorImaging", "ArkivatorOCR", "ArkivatorIntake", "ArkivatorLibrary", "ArkivatorSync",
            "ArkivatorLLM", "ArkivatorArchive", "ArkivatorClassify", "TestSupport",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ]),
        // The command line as a person uses it: every suite here runs the `arkivator` program.
        .testTarget(name: "ArkivatorCLITests", dependencies: [
            "ArkivatorLibrary", "ArkivatorImaging", "ArkivatorCore", "ArkivatorPipeline", "ArkivatorApp", "TestSupport",
        ]),
        .testTarget(name: "ArkivatorClassifyTests", dependencies: [
            "ArkivatorClassify", "TestSupport",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "ArkivatorLLMTests", dependencies: [
            "ArkivatorLLM", "ArkivatorClassify", "ArkivatorCore", "TestSupport",
        ]),
        .testTarget(name: "ArkivatorArchiveTests", dependencies: [
            "ArkivatorArchive", "TestSupport",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "ArkivatorLibraryTests", dependencies: [
            "ArkivatorLibrary", "ArkivatorCrypto", "TestSupport",
        ]),
        .testTarget(name: "ArkivatorSyncTests", dependencies: [
            "ArkivatorSync", "ArkivatorLibrary", "ArkivatorClassify", "ArkivatorCore", "TestSupport",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ]),
        .testTarget(name: "ArkivatorWebTests", dependencies: [
            "ArkivatorWeb", "ArkivatorLibrary", "ArkivatorCore", "ArkivatorArchive", "ArkivatorPipeline", "ArkivatorApp", "ArkivatorClassify",
            "ArkivatorImaging", "TestSupport",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
    ]
)

// See `fastInDebug`: the codecs' headers for every Swift target beside the cleanup that imports it.
for target in package.targets where target.type != .system && !target.name.hasPrefix("C")
    && target.name != "ArkivatorImaging" && target.name != "ArkivatorImagingTests" && target.name != "ArkivatorOCRTests" {
    target.swiftSettings = (target.swiftSettings ?? []) + codecSwiftSettings
}
