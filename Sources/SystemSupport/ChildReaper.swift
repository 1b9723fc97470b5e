// The SIGCHLD-driven fallback that reaps our children when pidfd_open is unavailable.
import Dispatch
import Glibc
import Locking

/// Reaps registered child pids (only those: never `waitpid(-1)`, which would steal other
/// code's children) when SIGCHLD arrives.
///
/// libdispatch reads signals through signalfd, which only sees SIGCHLD when it is blocked in
/// the receiving thread; a thread that has it unblocked consumes it unseen. So a slow poll
/// runs as well while any child is registered: a missed signal delays a reap, never loses it.
/// Thread-safe: its table is behind a mutex and its sources run on a private queue.
final class ChildReaper: Sendable {
    static let shared = ChildReaper()

    /// The registered children, and the sources that run while there are any.
    private struct State {
        var waiting: [pid_t: @Sendable (ProcessExit) -> Void] = [:]
        var signalSource: DispatchSourceSignal?
        var pollTimer: DispatchSourceTimer?
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "SystemSupport.ChildReaper")

    private init() {}

    /// Calls `onExit` (on the reaper's private queue) once `pid` has exited and been reaped.
    func watch(_ pid: pid_t, onExit: @escaping @Sendable (ProcessExit) -> Void) {
        state.withLock { state in
            state.waiting[pid] = onExit
            guard state.signalSource == nil else { return }
            let source = DispatchSource.makeSignalSource(signal: SIGCHLD, queue: queue)
            source.setEventHandler { [unowned self] in self.reapAll() }
            state.signalSource = source
            source.resume()
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
            timer.setEventHandler { [unowned self] in self.reapAll() }
            state.pollTimer = timer
            timer.resume()
        }
        // The child may have exited before the source existed.
        queue.async { [self] in reapAll() }
    }

    private func reapAll() {
        let pids = state.withLock { Array($0.waiting.keys) }
        for pid in pids {
            guard let exit = ProcessExit.poll(pid) else { continue }
            let onExit = state.withLock { $0.waiting.removeValue(forKey: pid) }
            onExit?(exit)
        }
        state.withLock { state in
            if state.waiting.isEmpty, let timer = state.pollTimer, let source = state.signalSource {
                timer.cancel()
                source.cancel()
                state.pollTimer = nil
                state.signalSource = nil
            }
        }
    }
}
