import ArkivatorCore
@testable import ArkivatorSync
import Testing

/// A WebDAV address with a login in it is refused without printing the password back.
@Suite struct CredentialsInAddressTests {
    @Test func theRefusalNeverShowsThePassword() {
        let cases = [
            ("webdav:https://kari:hemmelig-passord@sky.example.no/dav/Arkiv", "webdav:https://kari:***@sky.example.no/dav/Arkiv"),
            ("webdav:http://kari:p@ss:ord@127.0.0.1:8080/", "webdav:http://kari:***@127.0.0.1:8080/"),
            ("webdav:https://hemmelig-token@sky.example.no/dav", "webdav:https://***@sky.example.no/dav"),
            // An address that cannot be read at all (a space in the password) is refused the same way.
            ("webdav:https://kari:hemmelig passord@sky.example.no/dav", "webdav:https://kari:***@sky.example.no/dav"),
        ]
        for (address, shown) in cases {
            do {
                _ = try Destination.parse(address)
                Issue.record("\(shown) was taken")
            } catch {
                let message = error.userMessage
                #expect(error.kind == .badDestination)
                for text in [message.norwegian, message.english] {
                    #expect(!text.contains("hemmelig") && !text.contains("p@ss") && !text.contains("ord@"), "\(text)")
                    #expect(text.contains(shown), "\(text)")
                }
            }
        }
        #expect(UploadFailure.withoutPassword("webdav:https://sky.example.no/dav") == "webdav:https://sky.example.no/dav")
        #expect(UploadFailure.withoutPassword("webdav:https://sky.example.no/dav@x") == "webdav:https://sky.example.no/dav@x")
    }
}
