// Typed errors of the broker as a client sees them (API.md §7), and unknown ones kept as they came.
import ActivityBrokerInterface
import ActivityKit
import DBus

/// An error from a broker call. Broker error names map to their case through `BrokerErrorName`,
/// the table the service names its errors with (each case means what the `ActivityError` case
/// of the same name means); any other D-Bus error keeps its name and message in `.other`;
/// `.unreachable` means no broker answered, and keeps the D-Bus name that said so.
public enum BrokerError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidArgument(String), notFound(String), notApplicable(String), unavailable(String)
    case accessDenied(String), alreadyExists(String), limitExceeded(String), timeout(String)
    case providerFailed(String)
    /// The bus or the broker could not be reached; `address` is the bus address tried, `name`
    /// the D-Bus error that said so, as it came (`ServiceUnknown`, `NameHasNoOwner`,
    /// `Disconnected`, `NoServer`, `Spawn.ChildExited`, an authentication failure…). `name`
    /// defaults to `ServiceUnknown`, so `.unreachable(address:message:)` still builds one; a
    /// pattern that binds the values binds three (`.unreachable(let address, let message, _)`).
    case unreachable(address: String, message: String, name: String = DBusError.serviceUnknownName)
    /// Any other D-Bus error, as it came.
    case other(name: String, message: String)

    /// The standard errors that mean no broker answered: none runs and none could be started.
    static let unreachableNames: Set<String> = [
        DBusError.serviceUnknownName, DBusError.nameHasNoOwnerName, DBusError.disconnectedName,
        "org.freedesktop.DBus.Error.NoServer", "org.freedesktop.DBus.Error.FileNotFound",
        "org.freedesktop.DBus.Error.Spawn.ChildExited", "org.freedesktop.DBus.Error.Spawn.ExecFailed",
    ]

    /// Maps a D-Bus error reply back to a typed error.
    public init(_ error: DBusError, address: String) {
        if let domain = ActivityError(error) {
            self.init(domain)
        } else if Self.unreachableNames.contains(error.name) {
            self = .unreachable(address: address, message: error.message, name: error.name)
        } else {
            self = .other(name: error.name, message: error.message)
        }
    }

    /// The client's case of a domain error.
    init(_ error: ActivityError) {
        switch error {
        case .invalidArgument(let m): self = .invalidArgument(m)
        case .notFound(let m): self = .notFound(m)
        case .notApplicable(let m): self = .notApplicable(m)
        case .unavailable(let m): self = .unavailable(m)
        case .accessDenied(let m): self = .accessDenied(m)
        case .alreadyExists(let m): self = .alreadyExists(m)
        case .limitExceeded(let m): self = .limitExceeded(m)
        case .timeout(let m): self = .timeout(m)
        case .providerFailed(let m): self = .providerFailed(m)
        }
    }

    /// The domain error of a broker error; nil for `.unreachable` and `.other`.
    var domain: ActivityError? {
        switch self {
        case .invalidArgument(let m): .invalidArgument(m)
        case .notFound(let m): .notFound(m)
        case .notApplicable(let m): .notApplicable(m)
        case .unavailable(let m): .unavailable(m)
        case .accessDenied(let m): .accessDenied(m)
        case .alreadyExists(let m): .alreadyExists(m)
        case .limitExceeded(let m): .limitExceeded(m)
        case .timeout(let m): .timeout(m)
        case .providerFailed(let m): .providerFailed(m)
        case .unreachable, .other: nil
        }
    }

    /// The D-Bus error name this error came as.
    public var name: String {
        switch self {
        case .unreachable(_, _, let name): name
        case .other(let name, _): name
        default: BrokerErrorName(domain!).rawValue
        }
    }

    /// The human message that came with the error.
    public var message: String {
        switch self {
        case .unreachable(let address, let message, _): "no broker at \(address): \(message)"
        case .other(_, let message): message
        default: domain!.message
        }
    }

    public var description: String { message }
}
