// Ctrl-C while share waits for a job: the first cancels the job, the second quits at once.
import ActivityBrokerClient
import Dispatch
import Glibc
import SystemSupport
import TerminalUI

/// Turns SIGINT and SIGTERM into a call of `handler` (cancelling the job) while it lives.
///
/// The first signal asks the broker to cancel and waits for the job's end; a second one
/// exits at once with 130, so that a broker that does not answer cannot hold the terminal.
/// Before it exits it flushes `broker`'s connection: the first signal's cancel is handed to the
/// connection's loop, and a second one right behind it would otherwise exit before the cancel
/// was written (the job would run on; seen in CI with a stopped broker). Flushing waits for our
/// own socket only, never for the broker. With a `spinner`, its line is erased before each
/// signal's effect, so the message and the shell's prompt after exit start a line of their own.
/// `stop()` gives both signals back the action they had before (the default, or raw mode's handler).
final class InterruptHandler: Sendable {
    private let queue = DispatchQueue(label: "share.interrupt")
    private let watcher: SignalWatcher

    init(flushing broker: BrokerProxy, spinner: Spinner? = nil, _ handler: @escaping @Sendable () -> Void) {
        // Only touched on `queue`, by the watcher's handler.
        final class Count: @unchecked Sendable { var value = 0 }
        let count = Count()
        watcher = SignalWatcher(signals: [SIGINT, SIGTERM], queue: queue, scope: .temporary) { _ in
            count.value += 1
            guard count.value == 1 else {
                spinner?.interject {}
                broker.flush()
                exit(ShareExit.cancelled.rawValue)
            }
            let announce = { Output.error("share: cancelling (interrupt again to quit without waiting)") }
            if let spinner { spinner.interject(announce) } else { announce() }
            handler()
        }
    }

    func stop() {
        queue.sync { watcher.cancel() }
    }
}
