// Lock: a pthread mutex with lock() and unlock(), the one mutex of the project (`Locked` holds one).
import Glibc

/// A non-recursive mutex: a pthread mutex, which ThreadSanitizer intercepts (see `Locked` for
/// why not `Synchronization.Mutex`), without linking full Foundation for `NSLock`.
///
/// For fields guarded together where `Locked`'s closure does not fit (DBus unlocks before it
/// calls out). The mutex lives in its own allocation so that its address never moves.
public final class Lock: @unchecked Sendable {
    // Sendable: the pthread mutex is made for sharing between threads; the pointer never changes.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Waits for the mutex and takes it; it must not be held by this thread already.
    public func lock() { pthread_mutex_lock(mutex) }

    /// Releases the mutex this thread holds.
    public func unlock() { pthread_mutex_unlock(mutex) }
}
