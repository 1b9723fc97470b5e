// The UI services' guard on the D-Bus loop: only the broker may call; a broker connection's leaving closes what it opened.
import ActivityBrokerInterface
import DBus
import Dispatch

/// The callers a UI service (`activity-sheet`, `activity-browser`) accepts: the current owner of
/// `org.activitybroker.Broker1`, asked of the bus per call so that a replaced broker is refused
/// at once; anyone else gets `org.activitybroker.Error.AccessDenied`. It also watches each broker
/// connection that opened something, so that what it opened closes when it leaves.
///
/// `@unchecked Sendable`: used only on the connection's loop (`watch` checks with `assertOnLoop`).
public final class BrokerCallers: @unchecked Sendable {
    private let connection: Connection
    /// The service's interface, named in the AccessDenied message.
    private let interface: InterfaceName
    /// The broker connections being watched: one watch per connection, however many windows it opened.
    private var watched = Set<String>()

    public init(connection: Connection, interface: InterfaceName) {
        self.connection = connection
        self.interface = interface
    }

    /// Runs `body` on the loop if the caller owns the broker's name now; else replies AccessDenied.
    public func authorize(_ call: MethodInvocation, _ responder: Responder, _ body: @escaping () -> Void) {
        let sender = call.sender
        let interface = interface
        let query = MethodCall(
            destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "GetNameOwner",
            body: [.string(Broker1.busName.rawValue)])
        connection.call(query) { result in
            guard case .success(let values) = result, let owner = values.first?.string, owner == sender else {
                return responder.fail(
                    DBusError(
                        name: BrokerErrorName.accessDenied.rawValue,
                        message: "only the owner of \(Broker1.busName) may call \(interface)"))
            }
            body()
        }
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
