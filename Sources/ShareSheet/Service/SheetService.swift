// The org.activitybroker.impl.Sheet1 table: checks the caller on the D-Bus loop, hands sheets to the main thread.
import ActivityBrokerInterface
import DBus
import Dispatch

/// The exported interface of `activity-sheet` (API.md §10).
///
/// Handlers run on the connection's loop. Each call is first checked against the current owner
/// of `org.activitybroker.Broker1` (asked of the bus per call, so a broker that was replaced is
/// refused at once); anyone else gets `org.activitybroker.Error.AccessDenied`. Accepted calls hop
/// to the main thread, where GTK and the `SheetRegistry` live. `Show` replies when the user has
/// chosen or dismissed; `Update` and `Close` reply once applied.
struct SheetService: Sendable {
    let connection: Connection
    let registry: SheetRegistry
    let brokers = WatchedBrokers()

    func interface() -> Interface {
        Interface(
            Sheet1.interface,
            methods: [
                Sheet1.show.method(
                    .deferred { call, responder in
                        authorize(call, responder) {
                            let request: SheetRequest
                            do {
                                request = try SheetRequest(body: call.body)
                            } catch {
                                return responder.fail(error)
                            }
                            watchCaller(call.sender)
                            let registry = registry
                            DispatchQueue.main.async {
                                MainActor.assumeIsolated { registry.show(request, responder: responder) }
                            }
                        }
                    }),
                Sheet1.update.method(
                    .deferred { call, responder in
                        authorize(call, responder) {
                            guard let handle = call.body[0].objectPath, let text = call.body[1].string,
                                let state = SheetJobState(rawValue: text)
                            else {
                                let known = SheetJobState.allCases.map(\.rawValue).joined(separator: ", ")
                                return responder.fail(
                                    DBusError.invalidArgs(
                                        "state '\(call.body[1].string ?? "")' is not one of \(known)"))
                            }
                            let message = call.body[2].string ?? ""
                            let registry = registry
                            DispatchQueue.main.async {
                                MainActor.assumeIsolated {
                                    registry.update(handle, state: state, message: message)
                                }
                                responder.reply()
                            }
                        }
                    }),
                Sheet1.close.method(
                    .deferred { call, responder in
                        authorize(call, responder) {
                            guard let handle = call.body[0].objectPath else {
                                return responder.fail(DBusError.invalidArgs("handle"))
                            }
                            let registry = registry
                            DispatchQueue.main.async {
                                MainActor.assumeIsolated { registry.close(handle) }
                                responder.reply()
                            }
                        }
                    }),
            ])
    }

    /// Runs `body` on the loop if the caller owns the broker's name now; else replies AccessDenied.
    private func authorize(_ call: MethodInvocation, _ responder: Responder, _ body: @escaping () -> Void) {
        let sender = call.sender
        let query = MethodCall(
            destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "GetNameOwner",
            body: [.string(Broker1.busName.rawValue)])
        connection.call(query) { result in
            guard case .success(let values) = result, let owner = values.first?.string, owner == sender else {
                return responder.fail(
                    DBusError(
                        name: BrokerErrorName.accessDenied.rawValue,
                        message: "only the owner of \(Broker1.busName) may call \(Sheet1.interface)"))
            }
            body()
        }
    }

    /// Closes every sheet when a broker that asked for one leaves the bus: nobody is left to
    /// perform the choice. One watch per broker connection, however many sheets it shows.
    private func watchCaller(_ sender: String) {
        connection.assertOnLoop()
        guard brokers.watched.insert(sender).inserted else { return }
        let registry = registry
        let brokers = brokers
        _ = connection.watchDisconnect(of: sender) {
            brokers.watched.remove(sender)
            DispatchQueue.main.async {
                MainActor.assumeIsolated { registry.closeAll() }
            }
        }
    }
}

/// The broker connections being watched. `@unchecked Sendable`: used only on the connection's
/// loop (`SheetService` checks with `assertOnLoop`).
final class WatchedBrokers: @unchecked Sendable {
    var watched = Set<String>()
}
