// The broker's side of org.activitybroker.impl.Browser1: Open and Close on the browser window service.
import ActivityBrokerInterface
import DBus
import Dispatch
import FoundationEssentials
import Glibc

/// Calls the browser service (`org.activitybroker.Browser`, started by D-Bus activation).
///
/// Loop-confined like every feature: completions run on the connection's loop. It knows the
/// interface, not sessions: `BrowsingSessions` decides what the answers mean.
final class BrowserClient: @unchecked Sendable {
    private let service: UIServiceCalls

    init(connection: Connection, log: BrokerLog) {
        service = UIServiceCalls(connection: connection, log: log, serviceName: "the browser window")
    }

    /// A fresh handle for one window: an object path under the broker's that names it in
    /// `Close` and in the service's `Event`s (nothing is exported there). Distinct from the
    /// session's path, which only the app knows.
    static func newHandle() -> ObjectPath {
        UIServiceCalls.newHandle("browser")
    }

    /// `Open`, activating the service if need be; `completion` runs once on the loop with
    /// nil, or the D-Bus error (the service failed to start, refused, or did not answer).
    @discardableResult
    func open(
        handle: ObjectPath, appID: String, parentWindow: String, url: String, options: [String: Value],
        completion: @escaping (DBusError?) -> Void
    ) -> PendingCall {
        let call = Browser1.call(
            Browser1.open,
            [.objectPath(handle), .string(appID), .string(parentWindow), .string(url), .vardict(options)])
        return service.connection.call(call, timeout: .seconds(30), autoStart: true) { result in
            switch result {
            case .success: completion(nil)
            case .failure(let error): completion(error)
            }
        }
    }

    /// `Close(handle)`; never starts a browser just to close a window. `completion` (on the
    /// loop) runs once the service answered or could not.
    func close(handle: ObjectPath, completion: @escaping () -> Void = {}) {
        service.notify(Browser1.call(Browser1.close, [.objectPath(handle)]), completion: completion)
    }
}
