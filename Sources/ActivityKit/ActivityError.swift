// The one error enum of the domain: the API.md §7 error names, each with a message a person can act on.

/// Every expected failure of ActivityKit; the service maps each case to `org.activitybroker.Error.<Name>`
/// in one exhaustive switch, so the cases are exactly the names of API.md §7.
public enum ActivityError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Bad input: a malformed URL, manifest, template, option or item (`InvalidArgument`).
    case invalidArgument(String)
    /// No activity (or job) with that id (`NotFound`).
    case notFound(String)
    /// The activity's match rules reject the items (`NotApplicable`).
    case notApplicable(String)
    /// The activity's requirements are not met on this machine (`Unavailable`).
    case unavailable(String)
    /// The caller may not do this, e.g. unregister another connection's activity (`AccessDenied`).
    case accessDenied(String)
    /// The id is held by another connection or by a manifest (`AlreadyExists`).
    case alreadyExists(String)
    /// A per-connection limit was reached (`LimitExceeded`).
    case limitExceeded(String)
    /// A job or provider call ran out of time (`Timeout`).
    case timeout(String)
    /// The provider or program failed (`ProviderFailed`).
    case providerFailed(String)

    /// The message for people, without the error name.
    public var message: String {
        switch self {
        case .invalidArgument(let m), .notFound(let m), .notApplicable(let m), .unavailable(let m),
            .accessDenied(let m), .alreadyExists(let m), .limitExceeded(let m), .timeout(let m),
            .providerFailed(let m):
            return m
        }
    }

    /// The last component of the D-Bus error name (`InvalidArgument`, …), for logs and tests.
    public var name: String {
        switch self {
        case .invalidArgument: return "InvalidArgument"
        case .notFound: return "NotFound"
        case .notApplicable: return "NotApplicable"
        case .unavailable: return "Unavailable"
        case .accessDenied: return "AccessDenied"
        case .alreadyExists: return "AlreadyExists"
        case .limitExceeded: return "LimitExceeded"
        case .timeout: return "Timeout"
        case .providerFailed: return "ProviderFailed"
        }
    }

    public var description: String { "\(name): \(message)" }

    /// The same error kind with `prefix` put before its message (used to add a file and field name).
    func prefixed(_ prefix: String) -> ActivityError {
        let m = prefix + message
        switch self {
        case .invalidArgument: return .invalidArgument(m)
        case .notFound: return .notFound(m)
        case .notApplicable: return .notApplicable(m)
        case .unavailable: return .unavailable(m)
        case .accessDenied: return .accessDenied(m)
        case .alreadyExists: return .alreadyExists(m)
        case .limitExceeded: return .limitExceeded(m)
        case .timeout: return .timeout(m)
        case .providerFailed: return .providerFailed(m)
        }
    }
}
