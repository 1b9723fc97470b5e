// The daemon's settings (API.md §9), parsed from its command line.
import DBus
import Dispatch
import Glibc
import SystemSupport

/// What `activity-broker` was asked to do.
public struct BrokerConfiguration: Sendable {
    public var bus: BusAddress = .session
    /// Built-in manifest directories (origin `builtin`), lowest precedence.
    public var extensionDirectories: [String] = []
    /// The URL opener's argv (split on spaces; no shell). Default `xdg-open`.
    public var opener: [String] = ["xdg-open"]
    public var replace = false
    public var verbose = false
    /// The environment the broker resolves XDG directories, PATH and candidates' `env` in.
    public var environment: [String: String] = ProcessEnvironment.current
    /// How long a finished job stays readable by its caller (API.md §6), as a row of `FinishedJobs`. The hidden flag
    /// `--job-afterlife SECONDS` (a testing aid, e.g. `0.2`) shortens it.
    public var jobAfterlife: Duration = .seconds(60)
    /// How long after a browser window is shown its click's gesture proof may arrive (API.md
    /// §11; `AttributionGesture.defaultWindow`). The hidden flag `--gesture-window SECONDS` (a
    /// testing aid) changes it: tests that need a proof in time on a loaded machine widen it,
    /// tests of a late proof narrow it.
    public var gestureWindow: Duration = AttributionGesture.defaultWindow
    /// How old the list of activatable bus names may be before a lookup miss refreshes it
    /// (5 s). `--activatable-refresh-interval SECONDS` (a testing aid) changes it, so that a
    /// test can make the refresh due at once instead of waiting for time to pass.
    public var activatableRefreshInterval: Double = 5
    /// How long the broker waits for the bus daemon's answer about names and callers
    /// (`ListActivatableNames`, a caller's credentials) before it goes on without it (5 s).
    /// `--bus-query-timeout SECONDS` (a testing aid) lengthens it, so that a test telling
    /// "the broker kept serving while a query was out" from "the broker stalled until the query
    /// gave up" does not need the stall to be short on a loaded machine.
    public var busQueryTimeout: Duration = .seconds(5)
    /// Jobs running at once across all callers (`LimitExceeded` beyond). The hidden flag
    /// `--max-running-jobs N` (a testing aid) lowers it.
    public var maximumRunningJobs = 256
    /// Test aids for click measurement reports (API.md §11), hidden flags: `--clock-offset
    /// SECONDS` moves the broker's clock (a report becomes due without waiting a day),
    /// `--attribution-ca FILE` trusts a test CA for reports, `--attribution-connect-to
    /// HOST:PORT:HOST2:PORT2` (repeatable) sends a report for HOST to a loopback server.
    public var clockOffset: Double = 0
    public var attributionCAFile: String?
    public var attributionConnectTo: [String] = []

    public init() {}

    /// The locale for names when a caller gives none: LC_ALL, then LC_MESSAGES, then LANG.
    public var defaultLocale: String? { Self.locale(from: environment) }

    /// The locale `environment` names for messages: LC_ALL, then LC_MESSAGES, then LANG
    /// (unset, empty, `C` and `POSIX` name none).
    static func locale(from environment: [String: String]) -> String? {
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[key], !value.isEmpty, value != "C", value != "POSIX" { return value }
        }
        return nil
    }

    public static let usage = """
        Usage: activity-broker [--bus session|system|ADDRESS] [--extensions-dir DIR]...
                               [--opener CMD] [--replace] [--verbose]
               activity-broker --help | --version

        Owns org.activitybroker.Broker1 on the bus and offers share activities.
          --bus BUS             session (default), system, or a D-Bus address
          --extensions-dir DIR  also read built-in manifests from DIR (repeatable)
          --opener CMD          URL opener for 'open' activities (default: xdg-open)
          --replace             take the name over from a running broker
          --verbose             log more detail (never shared URLs)
          --help, --version     this text; the version
        """

    /// Parses the arguments after the program name; throws a message naming the bad argument.
    public static func parse(_ arguments: [String]) throws(UsageError) -> BrokerConfiguration {
        var configuration = BrokerConfiguration()
        var rest = arguments[...]
        func value(for flag: String) throws(UsageError) -> String {
            guard let value = rest.popFirst(), !value.isEmpty else { throw UsageError("\(flag) needs a value") }
            return value
        }
        // A wait in seconds, fractions allowed. No time at all would prove nothing: at least a
        // millisecond (a tiny positive number would round to none), at most an hour.
        func duration(for flag: String) throws(UsageError) -> Duration {
            let text = try value(for: flag)
            guard let seconds = Double(text), seconds >= 0.001, seconds <= 3600 else {
                throw UsageError("\(flag) needs a number of seconds from 0.001 to 3600, got '\(text)'")
            }
            return .nanoseconds(Int64((seconds * 1e9).rounded()))
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--bus":
                switch try value(for: argument) {
                case "session": configuration.bus = .session
                case "system": configuration.bus = .system
                case let address: configuration.bus = .address(address)
                }
            case "--extensions-dir": configuration.extensionDirectories.append(try value(for: argument))
            case "--opener":
                let opener = try value(for: argument).split(separator: " ").map(String.init)
                guard !opener.isEmpty else { throw UsageError("--opener needs a command") }
                configuration.opener = opener
            case "--replace": configuration.replace = true
            case "--verbose", "-v": configuration.verbose = true
            case "--job-afterlife":
                // A testing aid, not in the usage text: tests shorten the 60 s afterlife.
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds >= 0, seconds <= 86_400 else {
                    throw UsageError("--job-afterlife needs a number of seconds, got '\(text)'")
                }
                configuration.jobAfterlife = .milliseconds(Int64(seconds * 1000))
            case "--gesture-window":
                // A testing aid, not in the usage text.
                configuration.gestureWindow = try duration(for: argument)
            case "--activatable-refresh-interval":
                // A testing aid, not in the usage text.
                let text = try value(for: argument)
                guard let seconds = Double(text), seconds >= 0, seconds <= 3600 else {
                    throw UsageError("--activatable-refresh-interval needs a number of seconds, got '\(text)'")
                }
                configuration.activatableRefreshInterval = seconds
            case "--bus-query-timeout":
                // A testing aid, not in the usage text.
                configuration.busQueryTimeout = try duration(for: argument)
            case "--max-running-jobs":
                // A testing aid, not in the usage text: tests reach the global cap with a few jobs.
                let text = try value(for: argument)
                guard let count = Int(text), (1...65_536).contains(count) else {
                    throw UsageError("--max-running-jobs needs a count from 1 to 65536, got '\(text)'")
                }
                configuration.maximumRunningJobs = count
            case "--clock-offset":
                let text = try value(for: argument)
                guard let seconds = Double(text), abs(seconds) <= 10 * 365 * 86_400 else {
                    throw UsageError("--clock-offset needs a number of seconds, got '\(text)'")
                }
                configuration.clockOffset = seconds
            case "--attribution-ca": configuration.attributionCAFile = try value(for: argument)
            case "--attribution-connect-to": configuration.attributionConnectTo.append(try value(for: argument))
            case "--help", "-h": throw UsageError(nil)
            // `main` answers it only alone, the usage's second form; not "unknown" elsewhere.
            case "--version": throw UsageError("--version stands alone: activity-broker --version")
            default: throw UsageError("unknown argument '\(argument)'")
            }
        }
        return configuration
    }
}

/// A bad command line; `message` is nil when help was asked for.
public struct UsageError: Error, Sendable {
    public let message: String?
    public init(_ message: String?) { self.message = message }
}
