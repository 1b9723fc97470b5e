// The org.activitybroker.impl.Sheet1 table: checks the caller on the D-Bus loop, hands sheets to the main thread.
import ActivityBrokerInterface
import DBus
import Dispatch
import UIServiceSupport

/// The exported interface of `activity-sheet` (API.md §10).
///
/// Handlers run on the connection's loop. Each call is first checked against the current owner
/// of `org.activitybroker.Broker1` (asked of the bus per call, so a broker that was replaced is
/// refused at once); anyone else gets `org.activitybroker.Error.AccessDenied`. Accepted calls hop
/// to the main thread, where GTK and the `SheetRegistry` live. `Show` replies when the user has
/// chosen or dismissed; `Update` and `Close` reply once applied.
struct SheetService: Sendable {
    let registry: SheetRegistry
    /// Checks every call on the loop; the connection is theirs to ask.
    let callers: BrokerCallers

    /// `callers` are made first by the executable: the registry's idle exit asks them too.
    init(registry: SheetRegistry, callers: BrokerCallers) {
        self.registry = registry
        self.callers = callers
    }

    func interface() -> Interface {
        Interface(
            Sheet1.interface,
            methods: [
                Sheet1.show.method(
                    callers.openHandler(registry, decode: SheetRequest.init(body:)) {
                        [registry] request, broker, responder in
                        registry.show(request, openedBy: broker, responder: responder)
                    }),
                Sheet1.update.method(
                    .deferred { call, responder in
                        callers.authorize(call, responder) {
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
                Sheet1.close.method(callers.closeHandler(registry)),
            ])
    }
}
