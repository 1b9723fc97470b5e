// The command line of activity-sheet.

/// `activity-sheet [--bus session|ADDRESS] [--idle-exit SECONDS]`.
public struct SheetArguments: Sendable, Equatable {
    /// `session` (the default) or a D-Bus address (tests use a private bus).
    public var bus = "session"
    /// Exit after this long with no sheet open; nil never exits on its own.
    public var idleExit: Duration? = .seconds(60)

    public static let usage = """
        usage: activity-sheet [--bus session|ADDRESS] [--idle-exit SECONDS]
        The share sheet service (org.activitybroker.Sheet), normally started by D-Bus activation.
          --bus         the bus to serve on (default: session)
          --idle-exit   exit after SECONDS without an open sheet (default 60; 0: never)
        """

    public struct UsageError: Error, CustomStringConvertible {
        public let description: String
    }

    public init() {}

    /// Parses the arguments after the program name.
    public init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--bus":
                guard let value = rest.popFirst(), !value.isEmpty else {
                    throw UsageError(description: "--bus needs a value")
                }
                bus = value
            case "--idle-exit":
                guard let value = rest.popFirst(), let seconds = Int(value), seconds >= 0 else {
                    throw UsageError(description: "--idle-exit needs a number of seconds")
                }
                idleExit = seconds == 0 ? nil : .seconds(seconds)
            default:
                throw UsageError(description: "unknown argument '\(argument)'")
            }
        }
    }
}
