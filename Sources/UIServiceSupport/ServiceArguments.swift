// The command-line options every UI service takes: --bus and --idle-exit.

/// A command line a UI service refuses; its description says why.
public struct ServiceUsageError: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// Parsing of the options `activity-sheet` and `activity-browser` share; each service's own
/// arguments type keeps its fields, defaults and usage text and asks here first.
public enum ServiceArguments {
    /// How long a D-Bus-activated service waits idle before it exits, unless `--idle-exit` says
    /// otherwise: long enough that sharing a few pages in a row reuses one process.
    public static let defaultIdleExit: Duration = .seconds(60)

    /// Takes `argument` (and its value, from `rest`) into `bus` or `idleExit` when it is
    /// `--bus ADDRESS` or `--idle-exit SECONDS` (0: never); false when it is neither.
    public static func take(
        _ argument: String, from rest: inout ArraySlice<String>, bus: inout String, idleExit: inout Duration?
    ) throws(ServiceUsageError) -> Bool {
        switch argument {
        case "--bus":
            guard let value = rest.popFirst(), !value.isEmpty else {
                throw ServiceUsageError(description: "--bus needs a value")
            }
            bus = value
        case "--idle-exit":
            idleExit = try Self.idleExit(rest.popFirst())
        default:
            return false
        }
        return true
    }

    /// The value of `--idle-exit`: a whole number of seconds, 0 (nil) never exiting on its own.
    public static func idleExit(_ value: String?) throws(ServiceUsageError) -> Duration? {
        guard let value, let seconds = Int(value), seconds >= 0 else {
            throw ServiceUsageError(description: "--idle-exit needs a number of seconds")
        }
        return seconds == 0 ? nil : .seconds(seconds)
    }
}
