// Lock: a pthread mutex with lock() and unlock(), for the few fields DBus reads from any thread.
import Glibc

/// A non-recursive mutex (what `NSLock` was here, without linking full Foundation).
///
/// The mutex lives in its own allocation so that its address never moves.
final class Lock: @unchecked Sendable {
    // Sendable: the pthread mutex is made for sharing between threads; the pointer never changes.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }
}
