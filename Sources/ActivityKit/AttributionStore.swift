// AttributionStore: the rules of Private Click Measurement — which clicks and reports are kept, and when a report is due.

/// Clicks waiting for a trigger and reports waiting to be sent (API.md §11), as a value the
/// broker owns on its loop. No I/O: the caller passes the time (`now`, seconds since the epoch)
/// and a random source, so every rule is tested with a fake clock.
///
/// Rules: one click per site pair (a new click replaces the old); a click counts for
/// `AttributionClick.lifetimeDays`; a trigger turns the pair's click into a report due at a
/// uniformly random time 24–48 h later; while that report waits (and before either endpoint
/// has it), a trigger with a higher priority replaces its data; each attempt posts only to the
/// endpoints that have not answered yet, and a report that failed
/// `AttributionReport.maximumAttempts` times is dropped. Each list is capped; the oldest entry
/// makes room.
public struct AttributionStore: Hashable, Sendable {
    public static let clickCapacity = 1024
    public static let reportCapacity = 1024
    /// The report delay after a trigger, in seconds: 24 to 48 hours.
    public static let reportDelay = 86_400...172_800

    /// Oldest first.
    public private(set) var clicks: [AttributionClick]
    /// Oldest first.
    public private(set) var reports: [AttributionReport]

    public init(clicks: [AttributionClick] = [], reports: [AttributionReport] = []) {
        self.clicks = Array(clicks.suffix(Self.clickCapacity))
        self.reports = Array(reports.suffix(Self.reportCapacity))
    }

    public var isEmpty: Bool { clicks.isEmpty && reports.isEmpty }

    /// What a trigger did.
    public enum TriggerOutcome: Hashable, Sendable {
        /// No live click and no pending report for the pair: nothing happened.
        case noClick
        /// The pair's click became this report.
        case scheduled(AttributionReport)
        /// A pending report took the trigger's higher priority and data.
        case raisedPriority
        /// A pending report kept its equal or higher priority (or one endpoint has it already).
        case keptPriority
    }

    /// What became of a report after an attempt (`answered(_:by:now:)`).
    public enum DeliveryOutcome: Hashable, Sendable {
        /// Every endpoint has it now: the report is forgotten.
        case delivered
        /// An endpoint did not answer: tried once more after `AttributionReport.retryDelay`.
        case retrying
        /// An endpoint did not answer on the last attempt: the report is forgotten.
        case dropped
        /// The report was no longer pending (cleared meanwhile).
        case gone
    }

    /// Keeps `click`, replacing any click for the same pair; drops expired clicks and, over
    /// the cap, the oldest.
    public mutating func record(_ click: AttributionClick, now: Int) {
        removeExpired(now: now)
        clicks.removeAll { $0.pair == click.pair }
        clicks.append(click)
        if clicks.count > Self.clickCapacity { clicks.removeFirst(clicks.count - Self.clickCapacity) }
    }

    /// Applies `trigger`, seen in a session whose page is on `destinationSite`.
    public mutating func record(
        _ trigger: AttributionTrigger, destinationSite: String, now: Int,
        using random: inout some RandomNumberGenerator
    ) -> TriggerOutcome {
        removeExpired(now: now)
        let pair = AttributionSitePair(source: trigger.sourceSite, destination: destinationSite)
        if let index = reports.firstIndex(where: { $0.pair == pair }) {
            // Once an endpoint has the report, its data is what was reported: the other one gets the same.
            guard trigger.priority > reports[index].priority, reports[index].answered.isEmpty else {
                return .keptPriority
            }
            reports[index].priority = trigger.priority
            reports[index].triggerData = trigger.triggerData
            return .raisedPriority
        }
        guard let index = clicks.firstIndex(where: { $0.pair == pair }) else { return .noClick }
        let click = clicks.remove(at: index)
        let report = AttributionReport(
            sourceSite: click.sourceSite, destinationSite: click.destinationSite, sourceID: click.sourceID,
            triggerData: trigger.triggerData, priority: trigger.priority,
            triggerDay: AttributionDay(containing: now),
            sendAfter: now + Int.random(in: Self.reportDelay, using: &random))
        reports.append(report)
        if reports.count > Self.reportCapacity { reports.removeFirst(reports.count - Self.reportCapacity) }
        return .scheduled(report)
    }

    /// Forgets clicks whose last day has passed.
    public mutating func removeExpired(now: Int) {
        clicks.removeAll { !$0.isLive(at: now) }
    }

    /// The reports that may be sent at `now`, overdue ones included (the broker was not running).
    public func dueReports(now: Int) -> [AttributionReport] {
        reports.filter { $0.sendAfter <= now }
    }

    /// When the next report becomes due; nil without reports.
    public var nextSendTime: Int? { reports.map(\.sendAfter).min() }

    /// After a restart: every report read back is due at its `restartSendTime` (its exact
    /// time was not written down), which keeps it inside 24–48 h of its trigger.
    public mutating func resumeAfterRestart() {
        for index in reports.indices { reports[index].sendAfter = reports[index].restartSendTime }
    }

    /// An attempt to send the report for `pair` ended at `now`; `endpoints` answered (any HTTP
    /// status). They are never posted to again; when one is still missing the report is
    /// retried after `AttributionReport.retryDelay`, or dropped after its last attempt.
    @discardableResult
    public mutating func answered(
        _ pair: AttributionSitePair, by endpoints: Set<AttributionReport.Endpoint>, now: Int
    ) -> DeliveryOutcome {
        guard let index = reports.firstIndex(where: { $0.pair == pair }) else { return .gone }
        reports[index].answered.formUnion(endpoints)
        if reports[index].unanswered.isEmpty {
            reports.remove(at: index)
            return .delivered
        }
        reports[index].attempts += 1
        if reports[index].attempts >= AttributionReport.maximumAttempts {
            reports.remove(at: index)
            return .dropped
        }
        reports[index].sendAfter = now + AttributionReport.retryDelay
        return .retrying
    }

    /// Forgets every click and report (`share attributions --clear`).
    public mutating func clear() {
        clicks = []
        reports = []
    }
}
