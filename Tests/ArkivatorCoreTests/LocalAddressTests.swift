import ArkivatorCore
import Foundation
import Testing

/// One test for "is this address this machine", parsed, never searched for a substring.
@Suite struct LocalAddressTests {
    @Test(arguments: ["localhost", "LOCALHOST", "localhost.", "127.0.0.1", "127.1.2.3", "127.255.255.254", "::1", "[::1]",
                      "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "[::1%lo]"])
    func local(_ host: String) {
        #expect(LocalAddress.isLocal(host: host))
    }

    @Test(arguments: ["", "0.0.0.0", "::", "10.0.0.1", "192.168.1.10", "128.0.0.1", "127.0.0.1.example.com",
                      "localhost.example.com", "mylocalhost", "evil-127.0.0.1.com", "::2", "::ffff:10.0.0.1", "example.com",
                      "[::1"])
    func notLocal(_ host: String) {
        #expect(!LocalAddress.isLocal(host: host))
    }

    @Test func urls() throws {
        #expect(LocalAddress.isLocal(url: try #require(URL(string: "http://127.0.0.1:8080/v1"))))
        #expect(LocalAddress.isLocal(url: try #require(URL(string: "http://[::1]:8080"))))
        #expect(LocalAddress.isLocal(urlString: "http://localhost:11434"))
        // The old substring test took these for this machine.
        #expect(!LocalAddress.isLocal(urlString: "http://127.0.0.1.nip.io:8080"))
        #expect(!LocalAddress.isLocal(urlString: "https://example.com/?next=//localhost"))
        #expect(!LocalAddress.isLocal(urlString: "https://llm.example.com/v1"))
        #expect(!LocalAddress.isLocal(urlString: "not a url"))
    }
}
