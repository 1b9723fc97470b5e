// The command line of activity-sheet.
import UIServiceSupport

/// `activity-sheet [--bus session|ADDRESS] [--idle-exit SECONDS]`.
public struct SheetArguments: ServiceCommandArguments, Equatable {
    /// `session` (the default) or a D-Bus address (tests use a private bus).
    public var bus = "session"
    /// Exit after this long with no sheet open; nil never exits on its own.
    public var idleExit: Duration? = ServiceArguments.defaultIdleExit

    public static let usage = """
        usage: activity-sheet [--bus session|ADDRESS] [--idle-exit SECONDS]
        The share sheet service (org.activitybroker.Sheet), normally started by D-Bus activation.
          --bus         the bus to serve on (default: session)
          --idle-exit   exit after SECONDS without an open sheet (default \(ServiceArguments.defaultIdleExit.components.seconds); 0: never)
        """

    public typealias UsageError = ServiceUsageError

    public init() {}

    /// Parses the arguments after the program name.
    public init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard try ServiceArguments.take(argument, from: &rest, bus: &bus, idleExit: &idleExit) else {
                throw UsageError(description: "unknown argument '\(argument)'")
            }
        }
    }
}
