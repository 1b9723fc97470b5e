// One line per event on standard error; never a URL, title or text.
import Foundation

/// The broker's log. Lines look like `activity-broker: registered org.example.share (by :1.42)`.
///
/// Privacy rule, written once here: callers pass activity ids, job numbers, outcomes,
/// file names and bus names — never shared items. `debug` lines appear with `--verbose`.
public struct BrokerLog: Sendable {
    public let verbose: Bool
    private let sink: @Sendable (String) -> Void

    public init(verbose: Bool, sink: @escaping @Sendable (String) -> Void = BrokerLog.standardError) {
        self.verbose = verbose
        self.sink = sink
    }

    /// An event a user or administrator may want to see.
    public func event(_ message: String) { sink("activity-broker: \(message)\n") }

    /// Detail shown only with `--verbose`.
    public func debug(_ message: String) { if verbose { sink("activity-broker: \(message)\n") } }

    /// Writes with one `write(2)` so that lines from other threads do not interleave.
    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data(line.utf8))
    }
}
