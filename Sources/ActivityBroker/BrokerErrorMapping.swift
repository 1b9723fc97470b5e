// The one place where domain errors become D-Bus error names (API.md §7).
import ActivityKit
import DBus

/// The D-Bus error-name prefix of every broker error.
let brokerErrorPrefix = "org.activitybroker.Error."

extension ActivityError: DBusErrorConvertible {
    /// The error reply a caller sees. One exhaustive switch with no `default`, so a new
    /// domain error cannot compile without a D-Bus name.
    public var dbusError: DBusError {
        switch self {
        case .invalidArgument(let message): DBusError(name: brokerErrorPrefix + "InvalidArgument", message: message)
        case .notFound(let message): DBusError(name: brokerErrorPrefix + "NotFound", message: message)
        case .notApplicable(let message): DBusError(name: brokerErrorPrefix + "NotApplicable", message: message)
        case .unavailable(let message): DBusError(name: brokerErrorPrefix + "Unavailable", message: message)
        case .accessDenied(let message): DBusError(name: brokerErrorPrefix + "AccessDenied", message: message)
        case .alreadyExists(let message): DBusError(name: brokerErrorPrefix + "AlreadyExists", message: message)
        case .limitExceeded(let message): DBusError(name: brokerErrorPrefix + "LimitExceeded", message: message)
        case .timeout(let message): DBusError(name: brokerErrorPrefix + "Timeout", message: message)
        case .providerFailed(let message): DBusError(name: brokerErrorPrefix + "ProviderFailed", message: message)
        }
    }
}
