// The org.activitybroker.impl.Browser1 table: checks the caller on the D-Bus loop, hands windows to the main thread.
import ActivityBrokerInterface
import DBus
import Dispatch
import UIServiceSupport

/// The exported interface of `activity-browser` (API.md §10).
///
/// Handlers run on the connection's loop. Each call is first checked against the current owner
/// of `org.activitybroker.Broker1` (asked of the bus per call, so a replaced broker is refused
/// at once); anyone else gets `org.activitybroker.Error.AccessDenied`. Accepted calls hop to the
/// main thread, where GTK, WebKit and the `BrowserRegistry` live. `Open` replies once the
/// window is shown; `Close` once it is closed.
///
/// Events are unicast to the broker connection that called `Open` (the signal's destination
/// is its unique name), so no other client can observe the browsing.
struct BrowserService: Sendable {
    let connection: Connection
    let registry: BrowserRegistry
    let callers: BrokerCallers

    /// `callers` are made first by the executable: the registry's idle exit asks them too.
    init(connection: Connection, registry: BrowserRegistry, callers: BrokerCallers) {
        self.connection = connection
        self.registry = registry
        self.callers = callers
    }

    func interface() -> Interface {
        Interface(
            Browser1.interface,
            methods: [
                Browser1.open.method(
                    callers.openHandler(registry, decode: BrowserRequest.init(body:)) {
                        [registry, self] request, broker, responder in
                        do {
                            try registry.open(
                                request, openedBy: broker,
                                send: { handle, event in self.send(event, for: handle, to: broker) },
                                share: { parent, items, options in
                                    self.share(parent: parent, items: items, options: options)
                                })
                            responder.reply()
                        } catch {
                            responder.fail(error)
                        }
                    }),
                Browser1.close.method(callers.closeHandler(registry)),
            ],
            signals: [Browser1.event.spec])
    }

    /// Sends `event` for `handle` to `broker` alone.
    func send(_ event: BrowserEvent, for handle: ObjectPath, to broker: String) {
        guard let destination = try? BusName(broker) else { return }
        do {
            try connection.emit(
                Browser1.event.signal(
                    at: Browser1.objectPath,
                    [.objectPath(handle), .string(event.name), .vardict(event.details)], to: destination))
            BrowserLog.write("\(handle): \(event.name)")
        } catch {
            BrowserLog.write("cannot send \(event.name) for \(handle): \(error)")
        }
    }

    /// Calls `Broker1.Share` for the Action button. The job is the broker's to show and finish;
    /// only a refusal is logged.
    func share(parent: String, items: [String: Value], options: [String: Value]) {
        let call = Broker1.share.call(
            Broker1.busName, path: Broker1.objectPath,
            body: [.string(parent), .vardict(items), .vardict(options)])
        connection.call(call) { result in
            if case .failure(let error) = result { BrowserLog.write("Share failed: \(error)") }
        }
    }
}
