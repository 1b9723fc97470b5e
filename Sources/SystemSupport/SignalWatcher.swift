// Delivers SIGTERM/SIGINT (and others) as events on a queue, for a daemon's life or a command's wait.
import Dispatch
import Glibc

/// Turns process signals into calls on a queue (DispatchSource signal sources).
///
/// Two scopes. `.process` (a daemon's `main`): create it early, before other threads exist:
/// it blocks the signals in the calling thread (threads created later inherit the mask) and
/// sets them to ignored before the sources exist, so a signal arriving in between cannot kill
/// the process with its default action. libdispatch registers the sources asynchronously and
/// reads them through signalfd; a signal that arrives before then stays pending as long as
/// every thread blocks it, which holds when this runs on the main thread before others start.
/// After `cancel` the signals stay blocked and ignored (a late SIGTERM must not kill the
/// process while it finishes its state writes).
///
/// `.temporary` (a command waiting on something it can cancel, e.g. `share` waiting for a
/// job): the signals are only set to ignored while watched, the thread's mask is left alone,
/// and `cancel` gives them their default action back, so the next Ctrl-C ends the command.
///
/// With `.process`, SIGPIPE is ignored for the whole process too (writes to closed pipes and
/// sockets return EPIPE instead). Children started by `ProcessSpawner` get default signal
/// handling back.
public final class SignalWatcher: @unchecked Sendable {
    /// How long the watch lasts, and what the signals get back when it ends.
    public enum Scope: Sendable {
        /// For the rest of the process: blocked in the calling thread, ignored after `cancel`.
        case process
        /// For a while: default actions back on `cancel`.
        case temporary
    }

    // Invariant: `sources` is written only in init and cancel (on the queue).
    private let queue: DispatchQueue
    private let signals: [Int32]
    private let scope: Scope
    private var sources: [DispatchSourceSignal] = []

    /// Starts delivering `signals` to `handler` on `queue`, one call per delivery burst.
    public init(
        signals: [Int32] = [SIGTERM, SIGINT], queue: DispatchQueue, scope: Scope = .process,
        handler: @escaping @Sendable (Int32) -> Void
    ) {
        self.queue = queue
        self.signals = signals
        self.scope = scope
        if scope == .process {
            Self.ignoreSIGPIPE()
            var mask = sigset_t()
            sigemptyset(&mask)
            for signal in signals { sigaddset(&mask, signal) }
            pthread_sigmask(SIG_BLOCK, &mask, nil)
        }
        for number in signals {
            _ = Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            sources.append(source)
            source.resume()
        }
    }

    deinit { sources.forEach { $0.cancel() } }

    /// Stops delivering; with the `.temporary` scope the signals get their default action
    /// back. Call on the queue.
    public func cancel() {
        dispatchPrecondition(condition: .onQueue(queue))
        sources.forEach { $0.cancel() }
        sources = []
        if scope == .temporary {
            for number in signals { _ = Glibc.signal(number, SIG_DFL) }
        }
    }

    /// Sets SIGPIPE to ignored for the process.
    public static func ignoreSIGPIPE() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
