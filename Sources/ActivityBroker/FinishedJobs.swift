// Finished jobs during their afterlife (API.md §6): one small row each in one table, swept oldest first.
import ActivityBrokerInterface
import ActivityKit

/// What the broker keeps of a job once `Finished` was sent, so that its caller can still read
/// `State` and `ActivityId` for the afterlife (60 s): a row of a few dozen bytes keyed by the
/// job's token, instead of the job object, an exported table of closures and a timer each.
/// 10,000 Performs in a minute leave about 1 MB here.
///
/// Every row lives equally long, so rows expire in the order they were added and one sweep
/// from the oldest end removes them. A value owned by `JobTable`, loop-confined with it.
struct FinishedJobs {
    /// One finished job.
    struct Row {
        let state: JobState
        /// Shares the registry's string storage: no copy per row.
        let activityID: ActivityID?
        /// The only connection that may read the row (unique names fit Swift's inline strings).
        let caller: String
        /// Uptime (`DispatchTime` nanoseconds) from which the row is gone.
        let expiry: UInt64
    }

    private var rows: [JobToken: Row] = [:]
    /// Tokens in the order their rows were added (and so expire); `head` is the oldest kept.
    private var order: [JobToken] = []
    private var head = 0

    /// Rows kept (some may have expired and wait for the next sweep).
    var count: Int { rows.count }

    /// Adds a row; its expiry must not be earlier than the previous row's.
    mutating func insert(_ token: JobToken, _ row: Row) {
        rows[token] = row
        order.append(token)
    }

    /// The row of `token` while its afterlife lasts at `now`: an expired row not yet swept is
    /// gone already.
    func row(_ token: JobToken, at now: UInt64) -> Row? {
        guard let row = rows[token], now < row.expiry else { return nil }
        return row
    }

    /// Removes the rows expired at `now`; returns when the oldest remaining one expires (nil
    /// when none is left).
    mutating func sweep(at now: UInt64) -> UInt64? {
        while head < order.count, let row = rows[order[head]], row.expiry <= now {
            rows[order[head]] = nil
            head += 1
        }
        if rows.isEmpty {
            // A burst is over: give its storage back instead of keeping it for the next.
            rows = [:]
            order = []
            head = 0
            return nil
        }
        if head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        return rows[order[head]]?.expiry
    }
}
