// The open sheets by handle, and the service's idle exit. Main thread.
import ActivityBrokerInterface
import DBus
import UIServiceSupport

/// Every open sheet, keyed by the handle the broker chose. Main thread only.
///
/// When no sheet has been open for `idleExit`, `onIdle` runs (the executable exits: D-Bus
/// activation starts it again for the next `Show`).
@MainActor
final class SheetRegistry: SessionRegistry {
    private let sessions: OpenSessions<SheetSession>
    private let environment: [String: String]
    private let displayError: String?

    /// `displayError` is why GTK could not open a display (nil when it could): every `Show`
    /// then answers `failed` with it instead of a window.
    init(
        environment: [String: String], displayError: String?, idleExit: Duration?,
        onIdle: @escaping @MainActor () -> Bool
    ) {
        self.environment = environment
        self.displayError = displayError
        sessions = OpenSessions(idleExit: idleExit, onIdle: onIdle)
    }

    var count: Int { sessions.count }

    func show(_ request: SheetRequest, openedBy broker: String, responder: Responder) {
        if let displayError {
            responder.reply([
                .uint32(Sheet1.Response.failed.rawValue),
                .vardict([ResultKey.message: .string(displayError)]),
            ])
            return
        }
        guard sessions[request.handle] == nil else {
            responder.fail(DBusError.invalidArgs("handle \(request.handle) already has a sheet"))
            return
        }
        let strings = SheetStrings.choose(option: request.locale, environment: environment)
        sessions.open(request.handle, openedBy: broker) { onClosed in
            SheetSession(request: request, strings: strings, responder: responder, onClosed: onClosed)
        }
    }

    /// `Update` on a handle with no sheet is a no-op: the user may have closed it already.
    func update(_ handle: ObjectPath, state: SheetJobState, message: String) {
        sessions[handle]?.update(state, message: message)
    }

    /// `Close` on a handle with no sheet is a no-op, for the same reason.
    func close(_ handle: ObjectPath) {
        sessions.close(handle)
    }

    /// Closes the sheets `broker` showed (it left the bus).
    func closeAll(openedBy broker: String) {
        sessions.closeAll(openedBy: broker)
    }
}

extension SheetSession: HandleSession {}
