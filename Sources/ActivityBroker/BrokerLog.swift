// One line per event on standard error (per-job lines in batches); never a URL, title or text, and outside text only made printable.
import Dispatch
import Glibc

/// The broker's log. Lines look like `activity-broker: registered org.example.share (by :1.42)`.
///
/// Privacy rule, written once here: callers pass activity ids, job numbers, outcomes,
/// file names and bus names — never shared items. Text from outside (file names, parser
/// messages, system errors) goes through `printable`. `debug` lines appear with `--verbose`.
public struct BrokerLog: Sendable {
    public let verbose: Bool
    private let sink: @Sendable (String) -> Void
    private let batchSink: @Sendable (String) -> Void

    /// A log on standard error (`LogBatcher.standardError`).
    public init(verbose: Bool) {
        self.verbose = verbose
        self.sink = BrokerLog.standardError
        self.batchSink = { LogBatcher.standardError.append($0) }
    }

    /// A log whose every line goes to `sink` at once (tests).
    public init(verbose: Bool, sink: @escaping @Sendable (String) -> Void) {
        self.verbose = verbose
        self.sink = sink
        self.batchSink = sink
    }

    /// An event a user or administrator may want to see.
    public func event(_ message: String) { sink("activity-broker: \(message)\n") }

    /// An event that happens for every job (started, ended) or registration: the same line as
    /// `event`, written with others in one batch a few milliseconds later instead of at once
    /// (`LogBatcher`), so that logging costs the loop no system call per job or registration. Lines logged later with `event` are
    /// written after it.
    public func frequentEvent(_ message: String) { batchSink("activity-broker: \(message)\n") }

    /// Detail shown only with `--verbose`.
    public func debug(_ message: String) { if verbose { sink("activity-broker: \(message)\n") } }

    /// `text` from outside the broker (a file name, a parser's message quoting a file, an
    /// error naming a path) made safe for one log line: control characters (C0, DEL, C1), line
    /// and paragraph separators and bidirectional controls are written as `\u{…}`, so no file
    /// name can end a line, forge the next one or send escapes to a terminal. Every line that
    /// prints outside text passes it through here.
    public static func printable(_ text: some StringProtocol) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0: return true  // C0, DEL, C1
        case 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Standard error, at once (after any batched lines still waiting, so the order holds).
    public static let standardError: @Sendable (String) -> Void = { line in
        LogBatcher.standardError.write(line)
    }
}
