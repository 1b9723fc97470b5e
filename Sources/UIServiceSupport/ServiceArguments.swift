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
            guard let value = rest.popFirst(), let seconds = Int(value), seconds >= 0 else {
                throw ServiceUsageError(description: "--idle-exit needs a number of seconds")
            }
            idleExit = seconds == 0 ? nil : .seconds(seconds)
        default:
            return false
        }
        return true
    }
}
