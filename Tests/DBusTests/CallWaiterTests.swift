// CallWaiter, the bridge from an async call to its pending call: it leaves no cycle behind.
@testable import DBus
import Testing
import TestSupport

@Suite struct CallWaiterTests {
    /// Regression: when the reply came before the waiter was handed its pending call, the
    /// waiter kept the call and the call's completion kept the waiter, so both leaked with
    /// their locks (found by LeakSanitizer under `make sanitize`).
    @Test func aReplyBeforeAttachLeavesNoCycle() async throws {
        let pair = try await BusPair.start()
        let waiter = CallWaiter()
        weak var released: PendingCall?
        let result = await withCheckedContinuation { continuation in
            _ = waiter.start(continuation)
            let pending = PendingCall(connection: pair.client) { waiter.resume($0) }
            pending.complete(.success([.string("early")]))
            waiter.attach(pending)
            released = pending
        }
        #expect(try result.get() == [.string("early")])
        #expect(released == nil)
    }
}
