import Foundation
import NIOConcurrencyHelpers
import NIOCore
import Testing
@testable import ArkivatorWeb

/// The sign-in throttle and who counts as a client: a stranger's wrong passwords never lock
/// the owner out, tries from one client are taken one at a time, and a lock ends by itself.
@Suite struct SignInThrottleTests {
    /// A clock the test moves, and a pause that only records what it was asked to wait.
    final class Time: Sendable {
        let now = NIOLockedValueBox(Date(timeIntervalSince1970: 1_000_000))
        let paused = NIOLockedValueBox<[Double]>([])
        func advance(_ seconds: Double) { now.withLockedValue { $0 = $0.addingTimeInterval(seconds) } }
    }

    func throttle(_ time: Time) -> SignInThrottle {
        SignInThrottle(clock: { time.now.withLockedValue { $0 } }, sleep: { seconds in time.paused.withLockedValue { $0.append(seconds) } })
    }

    @Test func aStrangersGuessesNeverLockTheOwnerOut() async throws {
        let time = Time()
        let throttle = throttle(time)
        for _ in 0..<5 { #expect(await throttle.attempt(client: "127.0.0.2", { false }) == .wrong) }
        #expect(time.paused.withLockedValue { $0 } == Array(repeating: SignInThrottle.pause, count: 5), "every wrong answer comes late")
        guard case .locked = await throttle.attempt(client: "127.0.0.2", { true }) else {
            Issue.record("the stranger is locked, even with the right password")
            return
        }
        #expect(await throttle.attempt(client: "127.0.0.1", { true }) == .accepted, "the owner is another client")
    }

    @Test func triesDuringALockAreNotCountedAndTheLockEndsByItself() async throws {
        let time = Time()
        let throttle = throttle(time)
        for _ in 0..<5 { _ = await throttle.attempt(client: "x", { false }) }
        let checked = NIOLockedValueBox(0)
        for _ in 0..<20 {
            let outcome = await throttle.attempt(client: "x") {
                checked.withLockedValue { $0 += 1 }
                return false
            }
            #expect(outcome == .locked(seconds: 5))
        }
        #expect(checked.withLockedValue { $0 } == 0, "nothing is checked while locked")
        time.advance(5)
        #expect(await throttle.attempt(client: "x", { true }) == .accepted, "the lock was not made longer by the tries")
        #expect(await throttle.lockedSeconds(client: "x") == nil)
    }

    @Test func locksGrowThenAreForgottenAfterAQuietQuarter() async throws {
        let time = Time()
        let throttle = throttle(time)
        var locks: [Int] = []
        for _ in 0..<7 {
            _ = await throttle.attempt(client: "x", { false })
            if let seconds = await throttle.lockedSeconds(client: "x") {
                locks.append(seconds)
                time.advance(Double(seconds))
            }
        }
        #expect(locks == [5, 10, 20], "5 s, 10 s, 20 s …")
        time.advance(SignInThrottle.forgetAfter + 1)
        _ = await throttle.attempt(client: "x", { false })
        #expect(await throttle.lockedSeconds(client: "x") == nil, "counting starts again")
    }

    @Test func quietClientsAreForgotten() async throws {
        let time = Time()
        let throttle = throttle(time)
        for address in 0...SignInThrottle.pruneAbove { _ = await throttle.attempt(client: "10.0.\(address / 256).\(address % 256)", { false }) }
        #expect(await throttle.clientCount == SignInThrottle.pruneAbove + 1)
        time.advance(SignInThrottle.forgetAfter + 1)
        _ = await throttle.attempt(client: "192.0.2.1", { false })
        #expect(await throttle.clientCount == 1, "only the newest is remembered")
    }

    @Test func oneClientsTriesAreTakenOneAtATime() async throws {
        let time = Time()
        let throttle = throttle(time)
        let running = NIOLockedValueBox(0), most = NIOLockedValueBox(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    _ = await throttle.attempt(client: "x") {
                        let now = running.withLockedValue { $0 += 1; return $0 }
                        most.withLockedValue { $0 = max($0, now) }
                        try? await Task.sleep(for: .milliseconds(20))
                        running.withLockedValue { $0 -= 1 }
                        return false
                    }
                }
            }
        }
        #expect(most.withLockedValue { $0 } == 1)
    }

    @Test func aForwardedAddressIsBelievedOnlyFromATrustedProxy() throws {
        let addresses = ClientAddress(trustedProxies: ["10.0.0.1"])
        let proxy = try SocketAddress(ipAddress: "10.0.0.1", port: 4000)
        let stranger = try SocketAddress(ipAddress: "192.168.1.50", port: 4000)
        #expect(addresses.client(peer: proxy, forwardedFor: "203.0.113.9") == "203.0.113.9")
        #expect(addresses.client(peer: proxy, forwardedFor: "127.0.0.1, 203.0.113.9") == "203.0.113.9",
                "the nearest hop the proxy saw, not what the client wrote first")
        #expect(addresses.client(peer: proxy, forwardedFor: nil) == "10.0.0.1")
        #expect(addresses.client(peer: stranger, forwardedFor: "127.0.0.1") == "192.168.1.50", "not from a trusted proxy")
        #expect(addresses.client(peer: nil, forwardedFor: "127.0.0.1") == "ukjent")
        #expect(ClientAddress.normalised("::ffff:127.0.0.2") == "127.0.0.2")
    }

    @Test func theSetupCodeIsHardToMistypeAndCheckedWhole() {
        let code = SetupCode.make()
        #expect(code.value.count == 9 && code.value.dropFirst(4).first == "-")
        #expect(!code.value.contains { "01OIL".contains($0) })
        #expect(code.matches(code.value.lowercased()) && code.matches(code.value.replacingOccurrences(of: "-", with: " ")))
        #expect(!code.matches(String(code.value.dropLast())) && !code.matches(""))
    }
}
