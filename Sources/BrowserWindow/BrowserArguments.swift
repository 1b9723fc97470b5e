// The command line of activity-browser.
import UIServiceSupport

/// `activity-browser [--bus session|ADDRESS] [--idle-exit SECONDS] [--opener PROGRAM]`.
public struct BrowserArguments: ServiceCommandArguments, Equatable {
    /// `session` (the default) or a D-Bus address (tests use a private bus).
    public var bus = "session"
    /// Exit after this long with no window open; nil never exits on its own.
    public var idleExit: Duration? = ServiceArguments.defaultIdleExit
    /// The system opener for Open in Browser and for `mailto:`/`tel:` links, given the URL as
    /// its last argument.
    public var opener = ["xdg-open"]

    public static let usage = """
        usage: activity-browser [--bus session|ADDRESS] [--idle-exit SECONDS] [--opener PROGRAM]
        The browser window service (org.activitybroker.Browser), normally started by D-Bus activation.
          --bus         the bus to serve on (default: session)
          --idle-exit   exit after SECONDS without an open window (default \(ServiceArguments.defaultIdleExit.components.seconds); 0: never)
          --opener      the program that opens URLs outside (default: xdg-open)
        """

    public typealias UsageError = ServiceUsageError

    public init() {}

    /// Parses the arguments after the program name.
    public init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if try ServiceArguments.take(argument, from: &rest, bus: &bus, idleExit: &idleExit) { continue }
            switch argument {
            case "--opener":
                guard let value = rest.popFirst(), !value.isEmpty else {
                    throw UsageError(description: "--opener needs a program")
                }
                opener = [value]
            default:
                throw UsageError(description: "unknown argument '\(argument)'")
            }
        }
    }
}
