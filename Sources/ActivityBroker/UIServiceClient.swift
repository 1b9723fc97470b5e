// What the broker's clients of its UI services (the share sheet, the browser window) have in common.
import ActivityBrokerInterface
import DBus

/// The connection, log and handles the broker uses to call one UI service (`SheetClient`,
/// `BrowserClient`). One home for what both do alike: handles under the broker's object path,
/// and notifications that must never start the service (telling a sheet or window to close or
/// update is pointless when none runs).
struct UIServiceCalls: Sendable {
    let connection: Connection
    let log: BrokerLog
    /// How log lines name the service ("the share sheet").
    let serviceName: String

    /// A fresh handle `<Broker1 path>/<kind>/<token>`: an object path under the broker's that
    /// names one request or window in later calls and events (nothing is exported there).
    static func newHandle(_ kind: String) -> ObjectPath {
        try! ObjectPath(Broker1.objectPath.rawValue + "/" + kind + "/" + Job.randomToken())
    }

    /// Calls `call` without activating the service; a refusal or missing service is logged at
    /// debug level only. `completion` runs on the loop once the service answered or could not.
    func notify(_ call: MethodCall, completion: @escaping () -> Void = {}) {
        connection.call(call, timeout: .seconds(10), autoStart: false) { [log, serviceName] result in
            if case .failure(let error) = result {
                log.debug("\(serviceName) did not take \(call.member): \(error.name)")
            }
            completion()
        }
    }
}
