// A counting semaphore for async code: bounds how many brokers the tests run at once.
import Foundation

/// Hands out a limited number of slots; `acquire` suspends (without blocking a thread) until
/// one is free, `release` may be called from anywhere (e.g. a deinit).
///
/// Why: each broker holds two inotify instances (manifest and PATH watchers), and Linux allows
/// 128 per user (`fs.inotify.max_user_instances`) across the whole machine. Swift Testing starts
/// every test at once; unbounded, the brokers (and the System tests beside them) run out and
/// fail with EMFILE. A handful of brokers at a time keeps the suite fast and within the limit,
/// and spares the CPU that timing-sensitive tests elsewhere in the package need.
public final class BrokerSlots: @unchecked Sendable {
    /// Shared by every test target: they all run in one test process.
    public static let shared = BrokerSlots(count: 6)

    // `free` and `waiters` are guarded by `lock`.
    private let lock = NSLock()
    private var free: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init(count: Int) { free = count }

    public func acquire() async {
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

    public func release() {
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
