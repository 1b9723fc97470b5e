// Values set from other threads and awaited with a deadline by blocking tests.
import Foundation

/// Values set from another thread (a completion, a watcher's callback), awaited by a test that
/// may block its thread. The async counterpart is `Inbox`.
public final class Awaited<Value: Sendable>: @unchecked Sendable {
    // Invariant: `values` is only touched with `lock` held.
    private let lock = NSLock()
    private let semaphore = DispatchSemaphore(value: 0)
    private var values: [Value] = []

    public init() {}

    public func set(_ value: Value) {
        lock.lock()
        values.append(value)
        lock.unlock()
        semaphore.signal()
    }

    /// Waits for the first value; nil after `timeout` seconds (times `Deadline.timeScale`).
    public func wait(timeout: TimeInterval = 30) -> Value? {
        guard semaphore.wait(timeout: .now() + timeout * Deadline.timeScale) == .success else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return values.first
    }

    /// Every value set so far.
    public var all: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}
