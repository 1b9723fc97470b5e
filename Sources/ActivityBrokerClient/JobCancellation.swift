// A job's Cancel, sent once both are known: the job's path (the broker's reply) and the caller's wish.
import ActivityBrokerInterface
import DBus
import Dispatch

/// Sends `Job1.Cancel` for one `Perform` or `Share` once the caller asked for it and the broker
/// has named the job, whichever comes second, and at most once; then makes sure the wait for
/// the job's `Finished` ends.
///
/// Both halves meet on the connection's loop: the reply's completion runs there and `request()`
/// hops there. So a cancel asked for while the call is in flight goes out in the very turn that
/// reads the reply, before any task hears of the job, and a cancel asked for later goes out on
/// the loop's next turn: a client that cancels and then flushes (`share`'s second Ctrl-C,
/// `BrokerProxy.flush()`) exits with the `Cancel` written whenever the reply had been read.
///
/// A broker ends a cancelled job with `Finished(cancelled)`. One that answers `Cancel` (or
/// fails it, or lets it time out) but sends no `Finished` within `finishedGrace` after that
/// — a broker still on the bus but stuck — is not waited for any longer: the job ends
/// `cancelled` for the caller (`JobWaiter.settle`), as the documentation of `perform` promises.
/// Loop-confined state; `@unchecked Sendable` so that the cancellation handler may hold it.
final class JobCancellation: @unchecked Sendable {
    /// How long `Cancel` may take to be answered.
    static let cancelTimeout: Duration = .seconds(5)
    /// How long after `Cancel`'s answer the job's own `Finished` is still waited for.
    static let finishedGrace: Duration = .seconds(1)

    private let connection: Connection
    private let jobs: JobWaiter
    private var path: ObjectPath?
    private var requested = false
    private var sent = false

    init(connection: Connection, jobs: JobWaiter) {
        self.connection = connection
        self.jobs = jobs
    }

    /// The broker named the job. On the loop, in the reply's completion.
    func started(_ path: ObjectPath) {
        connection.assertOnLoop()
        self.path = path
        sendIfDue()
    }

    /// The caller cancelled. From any thread (a task's cancellation handler).
    func request() {
        connection.queue.async { [self] in
            requested = true
            sendIfDue()
        }
    }

    private func sendIfDue() {
        guard requested, !sent, let path else { return }
        sent = true
        let cancel = Job1.cancel.call(Broker1.busName, path: path)
        let (queue, jobs) = (connection.queue, jobs)
        _ = connection.call(cancel, timeout: Self.cancelTimeout, autoStart: false) { _ in
            // Whatever the answer: the job's `Finished`, if it comes, comes within the grace.
            queue.asyncAfter(deadline: .now() + Self.finishedGrace.dispatchInterval) {
                jobs.settle(path, with: .cancelled)
            }
        }
    }
}
