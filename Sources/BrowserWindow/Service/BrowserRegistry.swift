// The open windows by handle, and the service's idle exit. Main thread.
import ActivityBrokerInterface
import DBus
import Navigation
import UIServiceSupport

/// Every open browsing session, keyed by the handle the broker chose. Main thread only.
///
/// When no window has been open for `idleExit`, `onIdle` runs (the executable exits: D-Bus
/// activation starts it again for the next `Open`).
@MainActor
final class BrowserRegistry: SessionRegistry {
    private let sessions: OpenSessions<BrowserSession>
    private let engine: WebEngine?
    private let displayError: String?
    private let opener: any URLOpening

    /// `engine` is nil when GTK could not open a display (`displayError` says why): every
    /// `Open` then fails with `Unavailable`.
    init(
        engine: WebEngine?, displayError: String?, opener: any URLOpening, idleExit: Duration?,
        onIdle: @escaping @MainActor () -> Bool
    ) {
        self.engine = engine
        self.displayError = displayError
        self.opener = opener
        sessions = OpenSessions(idleExit: idleExit, onIdle: onIdle)
    }

    /// Opens a window for `request`; `send` carries its events to the broker that asked,
    /// `share` its Action button's `Share` call.
    func open(
        _ request: BrowserRequest, openedBy broker: String,
        send: @escaping (ObjectPath, BrowserEvent) -> Void,
        share: @escaping (String, [String: Value], [String: Value]) -> Void
    ) throws(DBusError) {
        guard let engine else {
            throw DBusError(
                name: BrokerErrorName.unavailable.rawValue, message: displayError ?? "no display")
        }
        guard sessions[request.handle] == nil else {
            throw .invalidArgs("handle \(request.handle) already has a window")
        }
        let handle = request.handle
        sessions.open(handle, openedBy: broker) { [opener] onClosed in
            BrowserSession(
                request: request, engine: engine, opener: opener, send: { send(handle, $0) }, share: share,
                onClosed: onClosed)
        }
    }

    /// `Close` on a handle with no window is a no-op: the user may have closed it already.
    func close(_ handle: ObjectPath) {
        sessions.close(handle)
    }

    /// Closes the windows `broker` opened (it left the bus: nobody is left to tell).
    func closeAll(openedBy broker: String) {
        sessions.closeAll(openedBy: broker)
    }
}

extension BrowserSession: HandleSession {}
