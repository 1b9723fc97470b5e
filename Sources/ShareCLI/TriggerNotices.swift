// TriggerNotices: what the trigger reporter has to tell the full-screen `share browse`, kept until its next draw.
import Foundation

/// A mailbox between `TerminalTriggerReporter` (on a load's task) and `BrowseLoop`, which shows
/// the latest notice in its status line: while the session is full-screen, standard error is
/// the same terminal, and a line written there would be drawn over at once.
final class TriggerNotices: @unchecked Sendable {
    // `latest` is guarded by `lock`.
    private let lock = NSLock()
    private var latest: String?

    /// Keeps `notice`, replacing one not shown yet (the newest says the same, and is current).
    func post(_ notice: String) {
        lock.withLock { latest = notice }
    }

    /// The notice not shown yet, once.
    func take() -> String? {
        lock.withLock {
            defer { latest = nil }
            return latest
        }
    }
}
