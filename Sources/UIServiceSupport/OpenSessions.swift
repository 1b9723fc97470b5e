// The UI services' open sessions by handle (sheets, browser windows) and their idle exit. Main thread.
import DBus

/// What `OpenSessions` keeps: one sheet or window, named by the handle the broker chose.
@MainActor
public protocol HandleSession: AnyObject {
    /// The handle the broker named it by in `Show`/`Open` and names it by in `Close`.
    var handle: ObjectPath { get }
    /// Ends it; it reports back through the `onClosed` it was made with (maybe later).
    func close()
}

/// What a UI service's registry offers its D-Bus side: `Close` of one handle, and closing
/// what a broker opened when it leaves (`BrokerCallers.closeHandler`, `openHandler`).
@MainActor
public protocol SessionRegistry: AnyObject, Sendable {
    /// `Close` on a handle with nothing open is a no-op.
    func close(_ handle: ObjectPath)
    /// Closes what the broker connection `broker` (a unique name) opened: it left the bus.
    func closeAll(openedBy broker: String)
}

/// Every open session of a UI service (`activity-sheet`, `activity-browser`), keyed by its
/// handle, and the service's idle exit: when none has been open for `idleExit`, `onIdle` runs
/// (the executable exits; D-Bus activation starts it again for the next call). Main thread only.
///
/// The services' registries keep what differs (how a session is made, what a refusal looks
/// like); what a handle means is kept here once.
@MainActor
public final class OpenSessions<Session: HandleSession> {
    /// Each open session with the broker connection (unique name) that opened it.
    private var sessions: [ObjectPath: (session: Session, opener: String)] = [:]
    private let idle: IdleExit

    /// `idleExit` nil never exits on its own; the wait starts now.
    public init(idleExit: Duration?, onIdle: @escaping @MainActor () -> Bool) {
        idle = IdleExit(after: idleExit, onIdle: onIdle)
        scheduleIdleExit()
    }

    /// How many are open.
    public var count: Int { sessions.count }

    /// The open session for `handle`, if any.
    public subscript(handle: ObjectPath) -> Session? { sessions[handle]?.session }

    /// Adds the session `make` builds for `handle` (the caller has checked that the handle is
    /// free), opened by the broker connection `broker`, calling off a pending idle exit. `make`
    /// receives what the session calls once it has closed.
    public func open(
        _ handle: ObjectPath, openedBy broker: String,
        _ make: (_ onClosed: @escaping (Session) -> Void) -> Session
    ) {
        idle.cancel()
        sessions[handle] = (make { [weak self] session in self?.closed(session) }, broker)
    }

    /// `Close` on a handle with nothing open is a no-op: the user may have closed it already.
    public func close(_ handle: ObjectPath) {
        sessions[handle]?.session.close()
    }

    /// Closes the sessions `broker` opened (it left the bus: nobody is left to tell them). Not
    /// the others: a broker that replaced it (`--replace`) may have opened some before the old
    /// one's connection ended.
    public func closeAll(openedBy broker: String) {
        for (session, opener) in sessions.values where opener == broker { session.close() }
    }

    private func closed(_ session: Session) {
        guard sessions[session.handle]?.session === session else { return }
        sessions[session.handle] = nil
        if sessions.isEmpty { scheduleIdleExit() }
    }

    private func scheduleIdleExit() {
        idle.schedule { [weak self] in self?.sessions.isEmpty == true }
    }
}
