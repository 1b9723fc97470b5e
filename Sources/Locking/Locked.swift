// Locked: a value behind a `Lock`, for state shared between the loop and worker or signal threads.

/// A value guarded by a pthread mutex (`Lock`), read and changed only inside `withLock`.
///
/// Not `Synchronization.Mutex`: on Linux that locks with atomics and futex calls made inside the
/// uninstrumented standard library, so ThreadSanitizer sees no ordering between two threads'
/// `withLock` and reports every access to the value as a race (`make sanitize` did, in
/// `Prewarmer`). ThreadSanitizer intercepts `pthread_mutex_lock`, so with this lock it checks
/// what it should.
public final class Locked<Value>: @unchecked Sendable {
    // Sendable: every access to `stored` happens between lock and unlock of `mutex`.
    private let mutex = Lock()
    private var stored: Value

    public init(_ value: Value) {
        stored = value
    }

    /// The current value (a copy), read or replaced under the lock.
    public var value: Value {
        get { withLock { $0 } }
        set { withLock { $0 = newValue } }
    }

    /// Runs `body` with the value, holding the lock; `body` must not call back into this lock.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&stored)
    }
}
