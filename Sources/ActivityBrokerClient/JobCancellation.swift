// A job's Cancel, sent once both are known: the job's path (the broker's reply) and the caller's wish.
import ActivityBrokerInterface
import DBus

/// Sends `Job1.Cancel` for one `Perform` or `Share` once the caller asked for it and the broker
/// has named the job, whichever comes second, and at most once.
///
/// Both halves meet on the connection's loop: the reply's completion runs there and `request()`
/// hops there. So a cancel asked for while the call is in flight goes out in the very turn that
/// reads the reply, before any task hears of the job, and a cancel asked for later goes out on
/// the loop's next turn: a client that cancels and then flushes (`share`'s second Ctrl-C,
/// `BrokerProxy.flush()`) exits with the `Cancel` written whenever the reply had been read.
/// Loop-confined state; `@unchecked Sendable` so that the cancellation handler may hold it.
final class JobCancellation: @unchecked Sendable {
    private let connection: Connection
    private var path: ObjectPath?
    private var requested = false
    private var sent = false

    init(connection: Connection) { self.connection = connection }

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
        _ = connection.call(cancel, timeout: .seconds(5), autoStart: false) { _ in }
    }
}
