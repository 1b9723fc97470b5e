// The broker's side of org.activitybroker.impl.Browser1: Open and Close on the browser window service.
import ActivityBrokerInterface
import DBus
import Dispatch
import Glibc

/// The broker's client of the browser window service.
typealias BrowserClient = UIServiceClient<Browser1>

extension UIServiceClient where Service == Browser1 {
    /// `Open`, activating the service if need be; `completion` runs once on the loop with
    /// nil, or the D-Bus error (the service failed to start, refused, or did not answer).
    @discardableResult
    func open(
        handle: ObjectPath, appID: String, parentWindow: String, url: String, options: [String: Value],
        completion: @escaping (DBusError?) -> Void
    ) -> PendingCall {
        call(
            Browser1.open,
            [.objectPath(handle), .string(appID), .string(parentWindow), .string(url), .vardict(options)],
            timeout: .seconds(30)
        ) { result in
            switch result {
            case .success: completion(nil)
            case .failure(let error): completion(error)
            }
        }
    }

    /// `Close(handle)`; never starts a browser just to close a window. `completion` (on the
    /// loop) runs once the service answered or could not.
    func close(handle: ObjectPath, completion: @escaping () -> Void = {}) {
        notify(Browser1.close, [.objectPath(handle)], completion: completion)
    }
}
