// A counting semaphore for async code: bounds how many broker fixtures run at once.
import Foundation

/// Hands out a limited number of slots; `acquire` suspends (without blocking a thread) until
/// one is free, `release` may be called from anywhere (e.g. a deinit).
///
/// Why: each broker holds two inotify instances (manifest and PATH watchers), and Linux allows
/// 128 per user (`fs.inotify.max_user_instances`) across the whole machine. Swift Testing starts
/// every test at once; unbounded, the brokers (and the System tests beside them) run out and
/// fail with EMFILE. A handful of brokers at a time keeps the suite fast and within the limit,
/// and spares the CPU that timing-sensitive tests elsewhere in the package need.
final class FixtureSlots: @unchecked Sendable {
    static let shared = FixtureSlots(count: 4)

    // `free` and `waiters` are guarded by `lock`.
    private let lock = NSLock()
    private var free: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { free = count }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if free > 0 {
                free -= 1
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    func release() {
        lock.lock()
        if waiters.isEmpty {
            free += 1
            lock.unlock()
        } else {
            let next = waiters.removeFirst()
            lock.unlock()
            next.resume()
        }
    }
}
