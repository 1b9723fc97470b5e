// A thread-safe collector that handlers on any thread fill and tests wait on with a deadline.
import Foundation

/// Collects items (signals, callbacks, results) delivered on other threads.
///
/// `put` from anywhere (typically a handler on a connection's loop); `next` hands items out in
/// order, waiting up to a deadline; `items` is everything received so far.
public final class Inbox<Item: Sendable>: @unchecked Sendable {
    // All state guarded by `lock`.
    private let lock = NSLock()
    private var received: [Item] = []
    private var cursor = 0
    private var waiters: [(id: Int, continuation: CheckedContinuation<Item?, Never>)] = []
    private var lastWaiter = 0

    public init() {}

    /// Adds an item, waking the oldest waiter.
    public func put(_ item: Item) {
        lock.lock()
        received.append(item)
        if !waiters.isEmpty {
            let waiter = waiters.removeFirst()
            cursor += 1
            lock.unlock()
            waiter.continuation.resume(returning: item)
            return
        }
        lock.unlock()
    }

    /// Everything received so far (consumed or not).
    public var items: [Item] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    public var count: Int { items.count }

    /// The next unconsumed item, waiting for it until `deadline`; throws `TimeoutError`.
    public func next(_ what: String = "an item", deadline: Deadline = .standard) async throws -> Item {
        let id: Int = {
            lock.lock()
            defer { lock.unlock() }
            lastWaiter += 1
            return lastWaiter
        }()
        let item: Item? = await withCheckedContinuation { continuation in
            lock.lock()
            if cursor < received.count {
                let item = received[cursor]
                cursor += 1
                lock.unlock()
                continuation.resume(returning: item)
                return
            }
            waiters.append((id, continuation))
            lock.unlock()
            let wait = deadline.remaining.components
            let nanoseconds = Int(clamping: wait.seconds * 1_000_000_000 + wait.attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
                lock.lock()
                guard let index = waiters.firstIndex(where: { $0.id == id }) else {
                    lock.unlock()
                    return
                }
                let waiter = waiters.remove(at: index)
                lock.unlock()
                waiter.continuation.resume(returning: nil)
            }
        }
        guard let item else { throw TimeoutError(what) }
        return item
    }

    /// Waits until at least `count` items have been received; throws `TimeoutError`.
    public func waitForCount(_ count: Int, _ what: String = "items", deadline: Deadline = .standard) async throws {
        try await waitUntil("\(count) \(what)", deadline: deadline) { self.count >= count }
    }
}
