// The service's log: one line per event on standard error, as the broker logs.
import Foundation

/// Writes `activity-browser: <line>` to standard error. Lines name URLs only as `LoggedURL`
/// (scheme and site): the service never logs what the user browsed.
enum BrowserLog {
    /// Debug lines are written only when `ACTIVITY_BROWSER_DEBUG` is set (non-empty): they are
    /// what a page can cause at will (dropped launches), which must not flood the journal.
    static let debugEnabled = !(ProcessInfo.processInfo.environment["ACTIVITY_BROWSER_DEBUG"] ?? "").isEmpty

    static func write(_ line: String) {
        FileHandle.standardError.write(Data("activity-browser: \(line)\n".utf8))
    }

    static func debug(_ line: @autoclosure () -> String) {
        if debugEnabled { write(line()) }
    }
}
