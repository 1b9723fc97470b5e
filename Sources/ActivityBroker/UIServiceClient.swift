// The broker's one client of its UI services (the share sheet, the browser window): handles, calls, notifications.
import ActivityBrokerInterface
import DBus

/// What the broker needs to know of a UI service's interface besides the contract: how log
/// lines name it and the path element of the handles it is given.
protocol UIServiceInterface: ServiceInterface {
    /// How log lines name the service ("the share sheet").
    static var serviceName: String { get }
    /// The path element of its handles ("request").
    static var handleKind: String { get }
}

extension Sheet1: UIServiceInterface {
    static let serviceName = "the share sheet"
    static let handleKind = "request"
}

extension Browser1: UIServiceInterface {
    static let serviceName = "the browser window"
    static let handleKind = "browser"
}

/// Calls one UI service (`org.activitybroker.Sheet` or `org.activitybroker.Browser`, started by
/// D-Bus activation). Its methods are in extensions for each service (`SheetClient.swift`,
/// `BrowserClient.swift`); what both do alike is here once: handles under the broker's object
/// path, and notifications that must never start the service (telling a sheet or window to
/// close or update is pointless when none runs).
///
/// Completions run on the connection's loop. It knows the interface, not jobs or sessions:
/// `ShareRequests` and `BrowsingSessions` decide what the answers mean.
struct UIServiceClient<Service: UIServiceInterface>: Sendable {
    let connection: Connection
    let log: BrokerLog

    /// A fresh handle `<Broker1 path>/<kind>/<token>`: an object path under the broker's that
    /// names one request or window in later calls and events (nothing is exported there).
    /// Distinct from any job's or session's path, which only the app knows.
    static func newHandle() -> ObjectPath {
        Broker1.path(below: Service.handleKind, token: Job.randomToken())
    }

    /// Calls `method` with `body`, activating the service if need be; `completion` runs once on
    /// the loop with the reply or the D-Bus error (the service failed to start, refused, or
    /// `timeout` passed). Cancel the returned call to stop waiting.
    func call(
        _ method: MethodSignature, _ body: [Value], timeout: Duration,
        completion: @escaping (Result<[Value], DBusError>) -> Void
    ) -> PendingCall {
        connection.call(Service.call(method, body), timeout: timeout, autoStart: true, completion: completion)
    }

    /// Calls `method` with `body` without activating the service; a refusal or missing service
    /// is logged at debug level only. `completion` runs on the loop once the service answered
    /// or could not.
    func notify(_ method: MethodSignature, _ body: [Value], completion: @escaping () -> Void = {}) {
        connection.call(Service.call(method, body), timeout: .seconds(10), autoStart: false) { [log] result in
            if case .failure(let error) = result {
                log.debug("\(Service.serviceName) did not take \(method.name): \(error.name)")
            }
            completion()
        }
    }
}
