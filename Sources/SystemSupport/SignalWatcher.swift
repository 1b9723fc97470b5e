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
/// a job): `cancel` gives the signals the action they had before (the default, so that the next
/// Ctrl-C ends the command, or the terminal's raw mode's handler when it was watched inside it). Children started by `ProcessSpawner` get default signal handling back.
///
/// The handler is a real one (`SA_RESTART`), so a call in another thread that a signal
/// interrupts and that does not restart (`poll`, `epoll_wait`, sleeps) returns `EINTR` once.
public final class SignalWatcher: @unchecked Sendable {
    /// How long the watch lasts, and what the signals get back when it ends.
    public enum Scope: Sendable {
        /// For the rest of the process: ignored after `cancel`.
        case process
        /// For a while: the previous actions back on `cancel`.
        case temporary
    }

    /// Whether `cancel` ran: read and written on `queue` only. Its own object, held by the
    /// relay's handler, so that a delivery queued before the watcher went away reads live memory.
    private final class Cancelled: @unchecked Sendable { var value = false }

    private let queue: DispatchQueue
    private let signals: [Int32]
    private let scope: Scope
    private let cancelled = Cancelled()

    /// Starts delivering `signals` to `handler` on `queue`, one call per delivery burst.
    public init(
        signals: [Int32] = [SIGTERM, SIGINT], queue: DispatchQueue, scope: Scope = .process,
        handler: @escaping @Sendable (Int32) -> Void
    ) {
        self.queue = queue
        self.signals = signals
        self.scope = scope
        if scope == .process { Self.ignoreSIGPIPE() }
        // Not `self`: the relay's table must not keep the watcher (deinit removes it). A
        // delivery queued before `cancel` finds `cancelled` set and does nothing.
        let cancelled = cancelled
        let watch = SignalRelay.Watch(queue: queue) { number in
            guard !cancelled.value else { return }
            handler(number)
        }
        SignalRelay.shared.add(ObjectIdentifier(self), watch, for: signals)
    }

    /// A watcher not cancelled stops here (one cancelled is no longer in the relay's table).
    deinit {
        SignalRelay.shared.remove(ObjectIdentifier(self), for: signals, afterwards: afterwards)
    }

    /// Stops delivering; with the `.temporary` scope the signals get their previous action
    /// back. Call on the queue.
    public func cancel() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !cancelled.value else { return }
        cancelled.value = true
        SignalRelay.shared.remove(ObjectIdentifier(self), for: signals, afterwards: afterwards)
    }

    /// What a signal gets once no watcher is left for it.
    private var afterwards: SignalRelay.Afterwards { scope == .temporary ? .previous : .ignored }

    /// Sets SIGPIPE to ignored for the process.
    public static func ignoreSIGPIPE() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
