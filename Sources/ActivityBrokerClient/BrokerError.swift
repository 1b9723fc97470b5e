// Typed errors of the broker as a client sees them (API.md §7), and unknown ones kept as they came.
import DBus

/// An error from a broker call. Broker error names map to their case; any other D-Bus
/// error keeps its name and message in `.other`; `.unreachable` means no broker answered.
public enum BrokerError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidArgument(String)
    case notFound(String)
    case notApplicable(String)
    case unavailable(String)
    case accessDenied(String)
    case alreadyExists(String)
    case limitExceeded(String)
    case timeout(String)
    case providerFailed(String)
    /// The bus or the broker could not be reached; `address` is the bus address tried.
    case unreachable(address: String, message: String)
    /// Any other D-Bus error, as it came.
    case other(name: String, message: String)

    static let prefix = "org.activitybroker.Error."

    /// Maps a D-Bus error reply back to a typed error.
    public init(_ error: DBusError, address: String) {
        switch error.name {
        case Self.prefix + "InvalidArgument": self = .invalidArgument(error.message)
        case Self.prefix + "NotFound": self = .notFound(error.message)
        case Self.prefix + "NotApplicable": self = .notApplicable(error.message)
        case Self.prefix + "Unavailable": self = .unavailable(error.message)
        case Self.prefix + "AccessDenied": self = .accessDenied(error.message)
        case Self.prefix + "AlreadyExists": self = .alreadyExists(error.message)
        case Self.prefix + "LimitExceeded": self = .limitExceeded(error.message)
        case Self.prefix + "Timeout": self = .timeout(error.message)
        case Self.prefix + "ProviderFailed": self = .providerFailed(error.message)
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
            "org.freedesktop.DBus.Error.Disconnected", "org.freedesktop.DBus.Error.NoServer",
            "org.freedesktop.DBus.Error.FileNotFound", "org.freedesktop.DBus.Error.Spawn.ChildExited",
            "org.freedesktop.DBus.Error.Spawn.ExecFailed":
            self = .unreachable(address: address, message: error.message)
        default: self = .other(name: error.name, message: error.message)
        }
    }

    /// The D-Bus error name this error came as.
    public var name: String {
        switch self {
        case .invalidArgument: Self.prefix + "InvalidArgument"
        case .notFound: Self.prefix + "NotFound"
        case .notApplicable: Self.prefix + "NotApplicable"
        case .unavailable: Self.prefix + "Unavailable"
        case .accessDenied: Self.prefix + "AccessDenied"
        case .alreadyExists: Self.prefix + "AlreadyExists"
        case .limitExceeded: Self.prefix + "LimitExceeded"
        case .timeout: Self.prefix + "Timeout"
        case .providerFailed: Self.prefix + "ProviderFailed"
        case .unreachable: "org.freedesktop.DBus.Error.ServiceUnknown"
        case .other(let name, _): name
        }
    }

    /// The human message that came with the error.
    public var message: String {
        switch self {
        case .invalidArgument(let m), .notFound(let m), .notApplicable(let m), .unavailable(let m),
            .accessDenied(let m), .alreadyExists(let m), .limitExceeded(let m), .timeout(let m),
            .providerFailed(let m):
            m
        case .unreachable(let address, let message): "no broker at \(address): \(message)"
        case .other(_, let message): message
        }
    }

    public var description: String { message }
}
