// AttributionTerminalTriggers: Broker1.ReportAttributionTrigger — triggers from `share browse`, and only from it.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Dispatch
import Glibc
import SystemSupport

/// Takes the triggers the terminal's browsing session saw in its own loads (API.md §11) and
/// refuses everyone else with `AccessDenied`, so that no other client on the bus can forge one.
///
/// The caller is known by its process, as the bus daemon recorded it when it connected
/// (`GetConnectionCredentials`): it must be the user's own and run the `share` executable
/// installed beside the broker (`AttributionTriggerCaller`). Process ids are reused, so the
/// process is pinned with a pidfd before its executable is read and the pidfd is checked
/// alive after: the bus's own `ProcessFD` (taken when the caller connected, so it can only
/// stand for the connecting process) where the daemon gives one (dbus-broker ≥ 35, dbus-daemon
/// ≥ 1.15.8); otherwise one the broker opens on the number, and then the connection must still
/// be on the bus afterwards with that number (a caller that sent the call and exited cannot
/// hand its number to a `share` it started). The window's triggers come another way: as events
/// of the owner of `org.activitybroker.Browser`, tied to a session by its secret handle.
///
/// What stays trusted: the `share` executable itself, which reports a redirect only for the
/// load it made and with the URL that load began at (the broker sees none of the terminal's
/// loads), and the user's processes that are not confined to the bus (see
/// `AttributionTriggerCaller`). Loop-confined.
final class AttributionTerminalTriggers: @unchecked Sendable {
    private let connection: Connection
    private let attributions: Attributions
    private let caller: AttributionTriggerCaller?
    private let log: BrokerLog
    /// Calls whose caller is being looked at, each with its parsed URLs (at most two of
    /// `SharedURL.maxLength`) and one or two queries of the bus daemon out.
    private var pendingChecks = 0
    /// At most this many callers are looked at at once; one more is `LimitExceeded`. A count
    /// any caller controls needs a bound: this one bounds the queries out and what waits for
    /// them (about 2 MB). One `share browse` reports one trigger at a time.
    static let maxPendingChecks = 32
    /// How long a question to the bus daemon about a caller may stay unanswered
    /// (`BrokerConfiguration.busQueryTimeout`).
    private let queryTimeout: Duration

    init(
        connection: Connection, attributions: Attributions, caller: AttributionTriggerCaller?, log: BrokerLog,
        queryTimeout: Duration
    ) {
        self.connection = connection
        self.queryTimeout = queryTimeout
        self.attributions = attributions
        self.caller = caller
        self.log = log
    }

    /// `ReportAttributionTrigger(url, page)` from `sender`: answered through `responder` once
    /// the sender is known.
    ///
    /// The arguments are checked first: a malformed call is refused at once, without asking
    /// the bus about its caller, and what waits for the answer is two URLs within
    /// `SharedURL.maxLength`, parsed once.
    func report(url: String, page: String, sender: String, responder: Responder) {
        connection.assertOnLoop()
        guard case let (trigger, pageURL)? = Self.parsed(url: url, page: page) else {
            return responder.fail(
                ActivityError.invalidArgument(
                    "\(Broker1.reportAttributionTrigger.name.rawValue): url must be an exact trigger URL and page an http(s) URL (each at most \(SharedURL.maxLength) bytes)"
                ))
        }
        guard pendingChecks < Self.maxPendingChecks else {
            return responder.fail(
                ActivityError.limitExceeded(
                    "\(Broker1.reportAttributionTrigger.name.rawValue): \(pendingChecks) callers are being checked already (at most \(Self.maxPendingChecks)); try again"
                ))
        }
        // `accept` and `refuse`, the only ends of the check, count it done.
        pendingChecks += 1
        busCall("GetConnectionCredentials", sender) { [self] reply in
            guard let credentials = reply?.first?.vardict else {
                return refuse(sender, responder, "its credentials are unknown")
            }
            // Owned either way, closed when the check is done: the bus's descriptor by the reply's
            // values, one opened here (pidfd_open) by its `UnixFD`.
            let processFD: UnixFD? =
                if case .unixFD(let fd)? = credentials["ProcessFD"], fd.isValid { fd } else { nil }
            let pin =
                processFD
                ?? credentials["ProcessID"]?.uint32.flatMap { SystemCalls.pidfdOpen(pid_t($0)) }.map(UnixFD.init(owning:))
            guard let pid = credentials["ProcessID"]?.uint32, credentials["UnixUserID"]?.uint32 == geteuid(),
                let pin, let caller, caller.runsExpectedExecutable(pid: pid),
                AttributionTriggerCaller.pidfd(pin.rawValue, standsFor: pid)
            else {
                return refuse(
                    sender, responder, "it is not \(Broker1.triggerReporterExecutable) beside the broker")
            }
            guard processFD == nil else { return accept(trigger, page: pageURL, responder: responder) }
            busCall("GetConnectionUnixProcessID", sender) { [self] again in
                guard again?.first?.uint32 == pid else {
                    return refuse(sender, responder, "it left the bus while it was checked")
                }
                accept(trigger, page: pageURL, responder: responder)
            }
        }
    }

    /// `url` as an exact trigger and `page` as an http(s) URL (both within `SharedURL.maxLength`,
    /// which `SharedURL` checks before it parses); nil when either is not.
    private static func parsed(url: String, page: String) -> (AttributionTrigger, SharedURL)? {
        guard let trigger = AttributionTrigger(url), let page = try? SharedURL(page),
            page.scheme == "http" || page.scheme == "https"
        else { return nil }
        return (trigger, page)
    }

    private func accept(_ trigger: AttributionTrigger, page: SharedURL, responder: Responder) {
        pendingChecks -= 1
        attributions.recordTrigger(trigger, page: page, session: "a terminal session")
        responder.reply()
    }

    private func refuse(_ sender: String, _ responder: Responder, _ why: String) {
        pendingChecks -= 1
        log.debug("\(Broker1.reportAttributionTrigger.name.rawValue) from \(sender) refused: \(why)")
        responder.fail(
            ActivityError.accessDenied(
                "\(Broker1.reportAttributionTrigger.name.rawValue) is only for `\(Broker1.triggerReporterExecutable) browse`, the terminal's browsing session"
            ))
    }

    /// A call of the bus daemon about `name`; `completion` gets the reply body, nil on an error.
    private func busCall(_ member: MemberName, _ name: String, completion: @escaping ([Value]?) -> Void) {
        connection.call(
            MethodCall(
                destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: member,
                body: [.string(name)]), timeout: queryTimeout
        ) { result in completion(try? result.get()) }
    }
}
