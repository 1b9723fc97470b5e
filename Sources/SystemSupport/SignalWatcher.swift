// Delivers SIGTERM/SIGINT (and others) as events on a queue, for a daemon's life or a command's wait.
import Dispatch
import Glibc

/// Turns process signals into calls on a queue, through the process's one handler
/// (`SignalRelay`), which is installed before `init` returns: a signal sent after that is never
/// lost, whichever thread it hits.
///
/// Two scopes. `.process` (a daemon's `main`): create it early; after `cancel` the signals stay
/// ignored (a late SIGTERM must not kill the process while it finishes its state writes), and
/// SIGPIPE is ignored for the whole process too (writes to closed pipes and sockets return EPIPE
/// instead). `.temporary` (a command waiting on something it can cancel, e.g. `share` waiting for
/// a job): `cancel` gives the signals their default action back, so the next Ctrl-C ends the
/// command. Children started by `ProcessSpawner` get default signal handling back.
///
/// The handler is a real one (`SA_RESTART`), so a call in another thread that a signal
/// interrupts and that does not restart (`poll`, `epoll_wait`, sleeps) returns `EINTR` once.
public final class SignalWatcher: @unchecked Sendable {
    /// How long the watch lasts, and what the signals get back when it ends.
    public enum Scope: Sendable {
        /// For the rest of the process: ignored after `cancel`.
        case process
        /// For a while: default actions back on `cancel`.
        case temporary
    }

    // Invariant: `cancelled` is read and written on `queue` only.
    private let queue: DispatchQueue
    private let signals: [Int32]
    private let scope: Scope
    private var cancelled = false

    /// Starts delivering `signals` to `handler` on `queue`, one call per delivery burst.
    public init(
        signals: [Int32] = [SIGTERM, SIGINT], queue: DispatchQueue, scope: Scope = .process,
        handler: @escaping @Sendable (Int32) -> Void
    ) {
        self.queue = queue
        self.signals = signals
        self.scope = scope
        if scope == .process { Self.ignoreSIGPIPE() }
        // Unowned: the relay's table must not keep the watcher (deinit removes it); a call
        // queued before `cancel` finds `cancelled` and does nothing.
        let watch = SignalRelay.Watch(queue: queue) { [unowned(unsafe) self] number in
            guard !self.cancelled else { return }
            handler(number)
        }
        SignalRelay.shared.add(ObjectIdentifier(self), watch, for: signals)
    }

    deinit {
        if !cancelled {
            SignalRelay.shared.remove(ObjectIdentifier(self), for: signals, leaving: disposition)
        }
    }

    /// Stops delivering; with the `.temporary` scope the signals get their default action
    /// back. Call on the queue.
    public func cancel() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !cancelled else { return }
        cancelled = true
        SignalRelay.shared.remove(ObjectIdentifier(self), for: signals, leaving: disposition)
    }

    /// What a signal gets once no watcher is left for it.
    private var disposition: __sighandler_t? { scope == .temporary ? SIG_DFL : SIG_IGN }

    /// Sets SIGPIPE to ignored for the process.
    public static func ignoreSIGPIPE() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
