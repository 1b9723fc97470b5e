// Cleanup that a test hands to a thread of its own, finished before the test process exits.
import Foundation

/// Runs blocking cleanup (stopping a bus, a broker, an X server) on a new `Thread`, and makes
/// the process wait for every such cleanup before it exits.
///
/// Why: an async test cannot `await` in a `defer`, and a blocking stop there holds a pool
/// thread (see `offPool`) for as long as the children take to exit. Handed to a thread, the
/// test ends at once and the cleanup still completes: an `atexit` handler waits for the
/// cleanups still running (up to a minute), so no bus, broker or directory outlives the run.
public enum BackgroundCleanup {
    private static let state = State()

    /// Runs `body` on a new thread; the process does not exit before it returns.
    public static func run(_ body: @escaping @Sendable () -> Void) {
        state.begin()
        Thread {
            body()
            state.end()
        }.start()
    }

    /// Blocks until no cleanup is running, or `deadline` passes.
    public static func waitForAll(deadline: Deadline = .seconds(60)) {
        state.waitForNone(deadline: deadline)
    }

    private final class State: @unchecked Sendable {
        // `running` and `registered` are guarded by `condition`.
        private let condition = NSCondition()
        private var running = 0
        private var registered = false

        func begin() {
            condition.lock()
            running += 1
            let register = !registered
            registered = true
            condition.unlock()
            if register { atexit { BackgroundCleanup.waitForAll() } }
        }

        func end() {
            condition.lock()
            running -= 1
            condition.broadcast()
            condition.unlock()
        }

        func waitForNone(deadline: Deadline) {
            condition.lock()
            defer { condition.unlock() }
            while running > 0 && !deadline.hasPassed { _ = condition.wait(until: deadline.date) }
        }
    }
}
