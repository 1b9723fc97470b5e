// Collects the unicast Finished signals of this connection's jobs and hands them to waiters.
import ActivityBrokerInterface
import DBus

/// Waits for `Finished` of job paths.
///
/// Loop-confined state (`finished`, `waiters`): the signal handler and the waiter both run
/// on the connection's loop, so a `Finished` that arrives before anyone waits is kept until
/// `outcome(of:)` takes it. The match is shared by all performs in flight (`subscribe`).
/// Only signals sent by the broker's current unique name count, so another peer cannot
/// end a job early by sending a forged `Finished`. When that broker leaves the bus, its jobs
/// can never finish: every job it named (`expect`) and nobody has taken the outcome of yet
/// gets a `failed` outcome at once, whether its waiter is already there or comes later (a new
/// broker may own the name by then). When the connection ends (closed or lost), likewise: the
/// waiter hears of that through `Connection.onEnd` while it has subscribers, and only then.
final class JobWaiter: @unchecked Sendable {
    private let connection: Connection
    private var subscription: Subscription?
    private var ownerWatch: Subscription?
    /// The `Connection.onEnd` handler, there while `subscription` is.
    private var endWatch: EndWatch?
    private var brokerOwner: String?
    /// Set once the owner watch reported the broker's current owner.
    private var ownerKnown = false
    private var subscribers = 0
    private var finished: [ObjectPath: ActivityOutcome] = [:]
    /// Usually one per path (`runJob` waits once per job); several all get the outcome.
    private var waiters: [ObjectPath: [CheckedContinuation<ActivityOutcome, Never>]] = [:]
    /// Jobs the broker named whose outcome nobody has taken yet.
    private var expected: Set<ObjectPath> = []

    init(connection: Connection) {
        self.connection = connection
    }

    /// The broker named the job at `path` (in the reply's completion, on the loop, before anyone
    /// waits for it): from now on it ends when its `Finished` comes or its broker leaves.
    func expect(_ path: ObjectPath) {
        connection.assertOnLoop()
        expected.insert(path)
    }

    /// Adds the `Finished` match (once for all concurrent performs).
    func subscribe() -> Int {
        connection.queue.sync {
            subscribers += 1
            if subscription == nil {
                subscription = connection.addMatch(
                    Job1.finished.rule()
                ) { [unowned self] signal in received(signal) }
                ownerWatch = connection.watchNameOwner(Broker1.busName) { [unowned self] owner in
                    let previous = brokerOwner
                    brokerOwner = owner
                    ownerKnown = true
                    // Jobs live in the broker process: a new owner (or none) will not finish them.
                    if let previous, previous != owner { brokerLeft() }
                }
                endWatch = connection.onEnd { [weak self] in self?.endExpected(with: Self.connectionLost) }
            }
            return subscribers
        }
    }

    func unsubscribe(_: Int) {
        connection.queue.async { [self] in
            subscribers -= 1
            if subscribers == 0, let subscription {
                connection.cancel(subscription)
                self.subscription = nil
                if let ownerWatch { connection.cancel(ownerWatch) }
                ownerWatch = nil
                if let endWatch { connection.cancel(endWatch) }
                endWatch = nil
                brokerOwner = nil
                ownerKnown = false
                finished.removeAll()
                expected.removeAll()
            }
        }
    }

    /// The job's outcome, now if it already came, else when it comes.
    func outcome(of path: ObjectPath) async -> ActivityOutcome {
        await withCheckedContinuation { continuation in
            connection.queue.async { [self] in
                if let outcome = finished.removeValue(forKey: path) {
                    expected.remove(path)
                    continuation.resume(returning: outcome)
                } else if ownerKnown && brokerOwner == nil {
                    // The broker left between its Perform reply and now.
                    continuation.resume(returning: Self.brokerGone)
                } else {
                    waiters[path, default: []].append(continuation)
                }
            }
        }
    }

    /// Ends the job at `path` with `outcome` unless its own came first: its waiters get it now,
    /// or the one that comes later. For a cancelled job whose broker has answered `Cancel` (or
    /// failed to) and sent no `Finished` in the grace after it. On the loop.
    func settle(_ path: ObjectPath, with outcome: ActivityOutcome) {
        connection.assertOnLoop()
        guard expected.contains(path), finished[path] == nil else { return }
        if let waiting = waiters.removeValue(forKey: path) {
            expected.remove(path)
            for waiter in waiting { waiter.resume(returning: outcome) }
        } else {
            finished[path] = outcome
        }
    }

    /// The outcome of a job whose broker left the bus before finishing it.
    static let brokerGone = ActivityOutcome.failed(
        error: DBusError.noReplyName,
        message: "the activity broker left the bus before the job finished; its result is unknown")

    /// The outcome of a job whose connection to the bus ended (closed or lost) before it finished.
    static let connectionLost = ActivityOutcome.failed(
        error: DBusError.disconnectedName,
        message: "the connection to the bus ended before the job finished; its result is unknown")

    private func brokerLeft() {
        endExpected(with: Self.brokerGone)
    }

    /// Ends every expected job that has no outcome yet with `outcome`: its waiter now, or the
    /// one that comes later. Outcomes that already came are kept for their waiters.
    private func endExpected(with outcome: ActivityOutcome) {
        let orphaned = waiters
        waiters.removeAll()
        for path in expected where finished[path] == nil && orphaned[path] == nil { finished[path] = outcome }
        for (path, waiting) in orphaned {
            expected.remove(path)
            for waiter in waiting { waiter.resume(returning: outcome) }
        }
    }

    private func received(_ signal: IncomingSignal) {
        guard signal.sender == brokerOwner, signal.body.count == 2, let stateName = signal.body[0].string,
            let state = ActivityOutcome.State(rawValue: stateName)
        else { return }
        let outcome = ActivityOutcome(state: state, values: signal.body[1].vardict ?? [:])
        if let waiting = waiters.removeValue(forKey: signal.path) {
            expected.remove(signal.path)
            for waiter in waiting { waiter.resume(returning: outcome) }
        } else {
            finished[signal.path] = outcome
        }
    }
}
