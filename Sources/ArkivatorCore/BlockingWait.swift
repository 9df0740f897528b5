import Dispatch
import NIOConcurrencyHelpers

/// The one bridge from a thread that may block (the pipeline's workers, a synchronous command,
/// the watch loop) to async work: runs `body` as a detached task and waits for its result.
/// Never call it from Swift's cooperative pool (it would hold one of its threads).
public enum BlockingWait {
    @available(*, noasync, message: "await the work instead")
    public static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = NIOLockedValueBox<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let value = await body()
            result.withLockedValue { $0 = value }
            done.signal()
        }
        done.wait()
        guard let value = result.withLockedValue({ $0 }) else {
            // Not reachable: the task sets the value before it signals.
            preconditionFailure("BlockingWait: signalled without a result")
        }
        return value
    }
}
