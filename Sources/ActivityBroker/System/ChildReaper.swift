// The SIGCHLD-driven fallback that reaps our children when pidfd_open is unavailable.
import Foundation
import Glibc

/// Reaps registered child pids (only those: never `waitpid(-1)`, which would steal other
/// code's children) when SIGCHLD arrives.
///
/// libdispatch reads signals through signalfd, which only sees SIGCHLD when it is blocked in
/// the receiving thread; a thread that has it unblocked consumes it unseen. So a slow poll
/// runs as well while any child is registered: a missed signal delays a reap, never loses it.
/// Thread-safe: its table is behind a lock and its sources run on a private queue.
final class ChildReaper: @unchecked Sendable {
    static let shared = ChildReaper()

    // Invariant: `waiting`, `signalSource`, `pollTimer` are only touched with `lock` held.
    private let lock = NSLock()
    private let queue = DispatchQueue(label: "ActivityBroker.ChildReaper")
    private var waiting: [pid_t: @Sendable (ProcessExit) -> Void] = [:]
    private var signalSource: DispatchSourceSignal?
    private var pollTimer: DispatchSourceTimer?

    private init() {}

    /// Calls `onExit` (on the reaper's private queue) once `pid` has exited and been reaped.
    func watch(_ pid: pid_t, onExit: @escaping @Sendable (ProcessExit) -> Void) {
        lock.lock()
        waiting[pid] = onExit
        if signalSource == nil {
            let source = DispatchSource.makeSignalSource(signal: SIGCHLD, queue: queue)
            source.setEventHandler { [unowned self] in self.reapAll() }
            signalSource = source
            source.resume()
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
            timer.setEventHandler { [unowned self] in self.reapAll() }
            pollTimer = timer
            timer.resume()
        }
        lock.unlock()
        // The child may have exited before the source existed.
        queue.async { [self] in reapAll() }
    }

    private func reapAll() {
        lock.lock()
        let pids = Array(waiting.keys)
        lock.unlock()
        for pid in pids {
            var status: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &status, WNOHANG) } while result == -1 && errno == EINTR
            guard result != 0 else { continue }
            lock.lock()
            let onExit = waiting.removeValue(forKey: pid)
            lock.unlock()
            onExit?(result == pid ? Self.decode(status) : .unknown)
        }
        lock.lock()
        if waiting.isEmpty, let timer = pollTimer, let source = signalSource {
            timer.cancel()
            source.cancel()
            pollTimer = nil
            signalSource = nil
        }
        lock.unlock()
    }

    /// Decodes a `waitpid` status word (the WIFEXITED/WTERMSIG macros are not importable).
    static func decode(_ status: Int32) -> ProcessExit {
        let low = status & 0x7f
        if low == 0 { return .exited((status >> 8) & 0xff) }
        if low != 0x7f { return .signaled(low) }
        return .unknown  // stopped; not requested with WUNTRACED, so not expected
    }
}
