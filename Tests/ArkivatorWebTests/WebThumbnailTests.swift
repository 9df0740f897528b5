import ArkivatorArchive
import ArkivatorCore
import ArkivatorLibrary
@testable import ArkivatorWeb
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// Thumbnails in the lists: made when first asked for (a letter filed before there were any),
/// kept by the browser at an address with their version, behind sign-in.
@Suite struct WebThumbnailTests {
    @Test func madeWhenFirstAskedForThenCachedAtAVersionedAddress() async throws {
        try await withWebDirectory { dir in
            let fixture = try WebFixture(directory: dir)
            // The innkalling's archived page becomes a real one; the epikrise's stays unreadable.
            let page = try #require(try fixture.library.documents.document("a1a1a1a1a1").files.images.first)
            try Data(contentsOf: Fixtures.root.appendingPathComponent("samples/labsvar-ren.png")).write(to: page.url)
            try await fixture.signedIn { client, browser in
                let list = try await client.execute(uri: "/", method: .get, headers: browser.headers)
                #expect(list.text.contains("src=\"/documents/a1a1a1a1a1/thumbnail\""), "not made yet: made when asked for")

                let made = try await client.execute(uri: "/documents/a1a1a1a1a1/thumbnail", method: .get, headers: browser.headers)
                #expect(made.status == .ok && made.headers[.contentType] == "image/jpeg")
                #expect(Array(made.body.readableBytesView.prefix(2)) == [0xFF, 0xD8] && made.body.readableBytes < 20_000)
                #expect(made.headers[.cacheControl] == "private, no-cache")
                let etag = try #require(made.headers[.eTag])
                let version = etag.trimmingCharacters(in: CharacterSet(charactersIn: "\""))

                let again = try await client.execute(uri: "/", method: .get, headers: browser.headers)
                #expect(again.text.contains("src=\"/documents/a1a1a1a1a1/thumbnail?v=\(version)\""))
                let kept = try await client.execute(uri: "/documents/a1a1a1a1a1/thumbnail?v=\(version)", method: .get,
                                                    headers: browser.headers)
                #expect(kept.status == .ok && kept.headers[.cacheControl] == "private, max-age=31536000, immutable")
                var asking = browser.headers
                asking[.ifNoneMatch] = etag
                let same = try await client.execute(uri: "/documents/a1a1a1a1a1/thumbnail", method: .get, headers: asking)
                #expect(same.status == .notModified && same.body.readableBytes == 0)

                // A page that cannot be read: no thumbnail, and the list stops asking.
                let none = try await client.execute(uri: "/documents/b2b2b2b2b2/thumbnail", method: .get, headers: browser.headers)
                #expect(none.status == .notFound)
                let after = try await client.execute(uri: "/", method: .get, headers: browser.headers)
                #expect(!after.text.contains("/documents/b2b2b2b2b2/thumbnail"))
                // The page itself is never kept by a browser.
                #expect(after.headers[.cacheControl] == "no-store")
                let stranger = try await client.execute(uri: "/documents/a1a1a1a1a1/thumbnail?v=\(version)", method: .get)
                #expect(stranger.status != .ok)
            }
        }
    }
}
