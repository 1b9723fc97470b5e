// The service's log: one line per event on standard error, as the broker logs.
import Foundation

/// Writes `activity-browser: <line>` to standard error.
enum BrowserLog {
    static func write(_ line: String) {
        FileHandle.standardError.write(Data("activity-browser: \(line)\n".utf8))
    }
}
