@testable import ArkivatorCore
import Testing

@Suite struct HexTests {
    @Test func bytesAreTwoLowercaseDigitsEach() {
        #expect(Hex.string([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(Hex.string([]) == "")
    }

    @Test func randomNamesHaveTheirLengthAndDiffer() {
        let one = Hex.random(bytes: 16), other = Hex.random(bytes: 16)
        #expect(one.count == 32 && one != other)
        #expect(one.allSatisfy { "0123456789abcdef".contains($0) })
    }

    @Test func randomBytesAreFreshEachTime() {
        #expect(SecureRandom.bytes(32).count == 32 && SecureRandom.bytes(32) != SecureRandom.bytes(32))
        #expect(SecureRandom.bytes(-1).isEmpty)
    }
}
