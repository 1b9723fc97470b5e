// Locked: a value behind a pthread mutex, for state shared between the loop and worker or signal threads.
import Glibc

/// A value guarded by a pthread mutex, read and changed only inside `withLock`.
///
/// Not `Synchronization.Mutex`: on Linux that locks with atomics and futex calls made inside the
/// uninstrumented standard library, so ThreadSanitizer sees no ordering between two threads'
/// `withLock` and reports every access to the value as a race (`make sanitize` did, in
/// `Prewarmer`). ThreadSanitizer intercepts `pthread_mutex_lock`, so with this lock it checks
/// what it should. The mutex lives in its own allocation: its address never moves.
public final class Locked<Value>: @unchecked Sendable {
    // Sendable: every access to `stored` happens between lock and unlock of `mutex`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var stored: Value

    public init(_ value: Value) {
        stored = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
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
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&stored)
    }
}
