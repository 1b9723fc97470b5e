// The UI services' guard on the D-Bus loop: only the broker may call; a broker connection's leaving closes what it opened.
import ActivityBrokerInterface
import DBus
import Dispatch

/// The callers a UI service (`activity-sheet`, `activity-browser`) accepts: the current owner of
/// `org.activitybroker.Broker1`, asked of the bus per call so that a replaced broker is refused
/// at once; anyone else gets `org.activitybroker.Error.AccessDenied`. It also watches each broker
/// connection that opened something, so that what it opened closes when it leaves.
///
/// It also holds the service's `QuietExit`: the idle exit's `onIdle` is `exitIfIdle`, and the
/// opening calls count there from their arrival until the main thread has run them.
///
/// `@unchecked Sendable`: used only on the connection's loop (`watch` checks with `assertOnLoop`),
/// but for `exitIfIdle` on the main thread, which touches only the `Sendable` `quietExit`.
public final class BrokerCallers: @unchecked Sendable {
    private let connection: Connection
    /// The service's interface, named in the AccessDenied message.
    private let interface: InterfaceName
    /// The broker connections being watched: one watch per connection, however many windows it opened.
    private var watched = Set<String>()
    /// Counts the opening calls (`Show`, `Open`) from their arrival on the loop until the main
    /// thread has run them: the idle exit must not end the process under one (`exitIfIdle`).
    let quietExit: QuietExit

    /// `log` writes the service's log line when it exits idle.
    public init(connection: Connection, interface: InterfaceName, log: @escaping @Sendable (String) -> Void) {
        self.connection = connection
        self.interface = interface
        quietExit = QuietExit(connection: connection, log: log)
    }

    /// Runs `body` on the loop if the caller owns the broker's name now; else replies
    /// AccessDenied and runs `refused`.
    public func authorize(
        _ call: MethodInvocation, _ responder: Responder, refused: @escaping () -> Void = {},
        _ body: @escaping () -> Void
    ) {
        let sender = call.sender
        let interface = interface
        let query = MethodCall(
            destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "GetNameOwner",
            body: [.string(Broker1.busName.rawValue)])
        connection.call(query) { result in
            guard case .success(let values) = result, let owner = values.first?.string, owner == sender else {
                refused()
                return responder.fail(
                    DBusError(
                        name: BrokerErrorName.accessDenied.rawValue,
                        message: "only the owner of \(Broker1.busName) may call \(interface)"))
            }
            body()
        }
    }

    /// The idle exit's `onIdle` (`OpenSessions`): exits the process when no call is on its way
    /// in, else returns false and the idle exit waits another round (`QuietExit.exitIfIdle`).
    /// Main thread.
    ///
    /// Before, the idle timer could fire while a `Show` or `Open` waited for its owner check or
    /// its hop to the main thread: the process exited and the broker's call failed.
    @MainActor
    public func exitIfIdle() -> Bool {
        quietExit.exitIfIdle()
    }

    /// Runs `onLeave` on the main thread when `sender` (a broker that opened something) leaves
    /// the bus: nobody is left to tell. Watching the same connection again does nothing.
    public func watch(_ sender: String, onLeave: @escaping @MainActor () -> Void) {
        connection.assertOnLoop()
        guard watched.insert(sender).inserted else { return }
        _ = connection.watchDisconnect(of: sender) { [self] in
            watched.remove(sender)
            DispatchQueue.main.async {
                MainActor.assumeIsolated { onLeave() }
            }
        }
    }
}
