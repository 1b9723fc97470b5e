// The broker's error names (API.md §7) and their one mapping to and from the domain's ActivityError.
import ActivityKit
import DBus

/// Every `org.activitybroker.Error.*` name, spelled once. The service names its errors
/// through this table and the client reads them back through it.
public enum BrokerErrorName: String, CaseIterable, Sendable {
    case invalidArgument = "org.activitybroker.Error.InvalidArgument"
    case notFound = "org.activitybroker.Error.NotFound"
    case notApplicable = "org.activitybroker.Error.NotApplicable"
    case unavailable = "org.activitybroker.Error.Unavailable"
    case accessDenied = "org.activitybroker.Error.AccessDenied"
    case alreadyExists = "org.activitybroker.Error.AlreadyExists"
    case limitExceeded = "org.activitybroker.Error.LimitExceeded"
    case timeout = "org.activitybroker.Error.Timeout"
    case providerFailed = "org.activitybroker.Error.ProviderFailed"

    /// The name of a domain error. One exhaustive switch with no `default`, so a new domain
    /// error cannot compile without a D-Bus name.
    public init(_ error: ActivityError) {
        switch error {
        case .invalidArgument: self = .invalidArgument
        case .notFound: self = .notFound
        case .notApplicable: self = .notApplicable
        case .unavailable: self = .unavailable
        case .accessDenied: self = .accessDenied
        case .alreadyExists: self = .alreadyExists
        case .limitExceeded: self = .limitExceeded
        case .timeout: self = .timeout
        case .providerFailed: self = .providerFailed
        }
    }

    /// The domain error this name stands for, with `message`.
    public func error(_ message: String) -> ActivityError {
        switch self {
        case .invalidArgument: .invalidArgument(message)
        case .notFound: .notFound(message)
        case .notApplicable: .notApplicable(message)
        case .unavailable: .unavailable(message)
        case .accessDenied: .accessDenied(message)
        case .alreadyExists: .alreadyExists(message)
        case .limitExceeded: .limitExceeded(message)
        case .timeout: .timeout(message)
        case .providerFailed: .providerFailed(message)
        }
    }
}

extension ActivityError: DBusErrorConvertible {
    /// The error reply a caller sees: the name from `BrokerErrorName`, the domain's message.
    public var dbusError: DBusError {
        DBusError(name: BrokerErrorName(self).rawValue, message: message)
    }

    /// The domain error a broker error reply stands for; nil for any name not in the table.
    public init?(_ error: DBusError) {
        guard let name = BrokerErrorName(rawValue: error.name) else { return nil }
        self = name.error(error.message)
    }
}
