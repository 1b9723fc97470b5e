// Delivers SIGTERM/SIGINT (and others) as events on a queue, and ignores SIGPIPE.
import Foundation
import Glibc

/// Turns process signals into calls on a queue (DispatchSource signal sources).
///
/// Create it early in `main`, before other threads exist: it blocks the signals in the
/// calling thread (threads created later inherit the mask) and sets them to ignored before the
/// sources exist, so a signal arriving in between cannot kill the process with its default
/// action. libdispatch registers the sources asynchronously and reads them through signalfd; a
/// signal that arrives before then stays pending as long as every thread blocks it, which
/// holds when this runs on the main thread before others start. SIGPIPE is ignored for the whole process
/// (writes to closed pipes and sockets return EPIPE instead). Children started by
/// `ChildProcessLauncher` get default signal handling back.
public final class SignalWatcher: @unchecked Sendable {
    // Invariant: `sources` is written only in init and cancel (on the queue).
    private let queue: DispatchQueue
    private var sources: [DispatchSourceSignal] = []

    /// Starts delivering `signals` to `handler` on `queue`, one call per delivery burst.
    public init(
        signals: [Int32] = [SIGTERM, SIGINT], queue: DispatchQueue,
        handler: @escaping @Sendable (Int32) -> Void
    ) {
        self.queue = queue
        Self.ignoreSIGPIPE()
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        pthread_sigmask(SIG_BLOCK, &mask, nil)
        for number in signals {
            _ = Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            sources.append(source)
            source.resume()
        }
    }

    deinit { sources.forEach { $0.cancel() } }

    /// Stops delivering. The signals stay blocked and do not get their default action back (a
    /// late SIGTERM must not kill the process while it finishes its state writes). Call on the queue.
    public func cancel() {
        dispatchPrecondition(condition: .onQueue(queue))
        sources.forEach { $0.cancel() }
        sources = []
    }

    /// Sets SIGPIPE to ignored for the process.
    public static func ignoreSIGPIPE() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
