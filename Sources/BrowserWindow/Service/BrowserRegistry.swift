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
final class BrowserRegistry {
    private var sessions: [ObjectPath: BrowserSession] = [:]
    private let engine: WebEngine?
    private let displayError: String?
    private let opener: any URLOpening
    private let idle: IdleExit

    /// `engine` is nil when GTK could not open a display (`displayError` says why): every
    /// `Open` then fails with `Unavailable`.
    init(
        engine: WebEngine?, displayError: String?, opener: any URLOpening, idleExit: Duration?,
        onIdle: @escaping () -> Void
    ) {
        self.engine = engine
        self.displayError = displayError
        self.opener = opener
        idle = IdleExit(after: idleExit, onIdle: onIdle)
        scheduleIdleExit()
    }

    /// Opens a window for `request`; `send` carries its events to the broker that asked,
    /// `share` its Action button's `Share` call.
    func open(
        _ request: BrowserRequest, send: @escaping (ObjectPath, BrowserEvent) -> Void,
        share: @escaping (String, [String: Value], [String: Value]) -> Void
    ) throws(DBusError) {
        guard let engine else {
            throw DBusError(
                name: BrokerErrorName.unavailable.rawValue, message: displayError ?? "no display")
        }
        guard sessions[request.handle] == nil else {
            throw .invalidArgs("handle \(request.handle) already has a window")
        }
        idle.cancel()
        let handle = request.handle
        sessions[handle] = BrowserSession(
            request: request, engine: engine, opener: opener, send: { send(handle, $0) }, share: share
        ) { [weak self] session in
            self?.closed(session)
        }
    }

    /// `Close` on a handle with no window is a no-op: the user may have closed it already.
    func close(_ handle: ObjectPath) {
        sessions[handle]?.close()
    }

    /// Closes every window (the broker left the bus: nobody is left to tell).
    func closeAll() {
        for session in Array(sessions.values) { session.close() }
    }

    private func closed(_ session: BrowserSession) {
        guard sessions[session.handle] === session else { return }
        sessions[session.handle] = nil
        if sessions.isEmpty { scheduleIdleExit() }
    }

    private func scheduleIdleExit() {
        idle.schedule { [weak self] in self?.sessions.isEmpty == true }
    }
}
