// BrowsingSession: the app's handle on a browser window the broker opened (Session1), its events and Close.
import ActivityBrokerInterface
import DBus
import Foundation

/// A browser window opened with `BrokerProxy.browse`: its events go to `delegate`, `close()`
/// closes it, `finished()` waits for it to go.
///
/// Loop-confined state: the signal handler, the broker watch and `finished()`'s waiters all
/// run on the connection's loop. Signals are taken only from the broker's current unique name
/// (another peer cannot fake `Finished`): the match names the broker as sender, and a signal
/// from anyone else is dropped as it comes once the broker's owner is known. Those that
/// arrive before `Browse` has returned are kept until the session's path is known, so none is
/// lost — at most `earlySignalLimit` of them, the newest. The session finishes (the delegate's
/// `browsingSessionDidFinish`, `finished()` returns) when the broker says so, when the broker
/// leaves the bus, or when the connection ends (closed or lost).
public final class BrowsingSession: @unchecked Sendable {
    /// How many signals are kept while `Browse` is in flight. A window sends a handful, and
    /// none before its session exists; the bound keeps a chatty peer from growing the buffer.
    static let earlySignalLimit = 32

    /// The `Session1` object; set before `browse` returns the session.
    public private(set) var path: ObjectPath?
    /// Held weakly, like `SFSafariViewController.delegate`.
    public private(set) weak var delegate: (any BrowsingSessionDelegate)?
    private let connection: Connection
    private var signals: Subscription?
    private var brokerWatch: Subscription?
    private var endWatch: EndWatch?
    private var broker: String?
    private var early: [IncomingSignal] = []
    private var isFinished = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Subscribes before `Browse` is called.
    init(connection: Connection, delegate: (any BrowsingSessionDelegate)?) {
        self.connection = connection
        self.delegate = delegate
        connection.queue.sync {
            signals = connection.addMatch(
                MatchRule(sender: Broker1.busName.rawValue, interface: Session1.interface)
            ) { [self] signal in
                if let broker, signal.sender != broker { return }
                early.append(signal)
                if early.count > Self.earlySignalLimit {
                    early.removeFirst(early.count - Self.earlySignalLimit)
                }
                deliver()
            }
            brokerWatch = connection.watchNameOwner(Broker1.busName) { [self] owner in
                let previous = broker
                broker = owner
                // The session lives in the broker: when it goes, so does the window's session.
                if let previous, previous != owner { finish() } else { deliver() }
            }
            // With the connection, the session ends for the app: no signal, no answer to
            // Close can come any more. Before `Browse` has returned, its call fails with the
            // connection and `browse` throws: there is no session to finish.
            endWatch = connection.onEnd { [self] in
                if path != nil { finish() } else { stopListening() }
            }
        }
    }

    /// `Browse` returned `path`: the session's signals are delivered from now on. Synchronous,
    /// so that `path` is set (and never changes again) before the app holds the session.
    func attach(_ path: ObjectPath) {
        connection.queue.sync { [self] in
            self.path = path
            deliver()
        }
    }

    /// `Browse` failed: stop listening.
    func detach() {
        connection.queue.async { [self] in stopListening() }
    }

    /// Closes the window (`Session1.Close`); `didFinish` follows. A session already finished
    /// is left alone.
    public func close() async throws(BrokerError) {
        guard let path, !connection.queue.sync(execute: { isFinished }) else { return }
        do {
            _ = try await connection.call(
                Session1.close.call(Broker1.busName, path: path), timeout: .seconds(10))
        } catch where error.name == DBusError.unknownObjectName {
            return  // It finished meanwhile.
        } catch {
            throw BrokerError(error, address: "the broker")
        }
    }

    /// Returns once the window is gone (`Finished`), at once if it already is.
    public func finished() async {
        await withCheckedContinuation { continuation in
            connection.queue.async { [self] in
                if isFinished { continuation.resume() } else { waiters.append(continuation) }
            }
        }
    }

    // MARK: On the loop

    /// Hands the kept signals of this session, from the broker, to the delegate in order.
    private func deliver() {
        guard let path, let broker, !isFinished else { return }
        let pending = early
        early.removeAll()
        for signal in pending where signal.path == path && signal.sender == broker {
            switch (signal.member, signal.body.first) {
            case (Session1.initialLoadCompleted.name.rawValue, .boolean(let success)?):
                delegate?.browsingSession(self, didCompleteInitialLoad: success)
            case (Session1.initialLoadRedirected.name.rawValue, .string(let text)?):
                if let url = URL(string: text) {
                    delegate?.browsingSession(self, initialLoadDidRedirectTo: url)
                }
            case (Session1.willOpenInBrowser.name.rawValue, _):
                delegate?.browsingSessionWillOpenInBrowser(self)
            case (Session1.finished.name.rawValue, _):
                finish()
                return
            default:
                continue
            }
        }
    }

    private func finish() {
        guard !isFinished else { return }
        isFinished = true
        stopListening()
        delegate?.browsingSessionDidFinish(self)
        let waiting = waiters
        waiters.removeAll()
        for waiter in waiting { waiter.resume() }
    }

    private func stopListening() {
        if let signals { connection.cancel(signals) }
        if let brokerWatch { connection.cancel(brokerWatch) }
        if let endWatch { connection.cancel(endWatch) }
        signals = nil
        brokerWatch = nil
        endWatch = nil
        early.removeAll()
    }
}
