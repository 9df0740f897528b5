import Foundation

/// The one-time code that the first password needs: `serve` prints it in its terminal when no
/// password is set, so only someone at the machine (or with its terminal) can claim the archive,
/// never a browser on the network or a request through a proxy.
struct SetupCode: Sendable {
    let value: String

    /// Eight letters and digits that cannot be confused (no 0/O, 1/I/L), shown as `XXXX-XXXX`.
    static func make() -> SetupCode {
        let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        let letters = (0..<8).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] }
        return SetupCode(value: String(letters[0..<4]) + "-" + String(letters[4...]))
    }

    /// Whether `typed` is the code, ignoring case, spaces and the dash.
    func matches(_ typed: String) -> Bool {
        let clean = { (s: String) in s.uppercased().filter { $0.isLetter || $0.isNumber } }
        let a = Array(clean(typed).utf8), b = Array(clean(value).utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
