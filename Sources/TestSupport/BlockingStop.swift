// A test resource with a blocking stop(), and the two ways an async test stops it without blocking the pool.

/// A bus, broker harness or X server: `stop()` is idempotent and blocks while children exit.
///
/// Async tests stop it without holding a concurrency-pool thread (see `offPool`): with
/// `stopOffPool()` when they go on to check it is gone, with `stopInBackground()` in a `defer`,
/// which cannot await.
public protocol BlockingStop: Sendable {
    /// Stops the resource and waits for its processes. Idempotent.
    func stop()
}

extension BlockingStop {
    /// `stop()` on a thread of its own (`offPool`), awaited.
    public func stopOffPool() async {
        await offPool { stop() }
    }

    /// `stop()` on a thread of its own without waiting for it (`BackgroundCleanup`): the process
    /// still waits for it before it exits.
    public func stopInBackground() {
        BackgroundCleanup.run { self.stop() }
    }
}
