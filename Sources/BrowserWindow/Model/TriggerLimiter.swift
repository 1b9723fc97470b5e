// How many AttributionTrigger events a page may cause: each (url, page) once per load, and a few a second.
import Foundation

/// Bounds the `AttributionTrigger` events one window sends the broker: a page can redirect
/// subresources in a loop, and each event costs the broker a lookup and a log line. A pair
/// (trigger URL, page) is sent once per page load (`newPage` starts a load's set afresh), and at
/// most `perSecond` events go out in any second; the rest are dropped.
public struct TriggerLimiter: Sendable {
    public static let defaultPerSecond = 8
    /// Pairs seen in one load; past this many the load sends no more (the set stays bounded).
    public static let maxPairsPerPage = 256

    public let perSecond: Int
    private var seen: Set<[String]> = []
    private var recent: [ContinuousClock.Instant] = []

    public init(perSecond: Int = defaultPerSecond) {
        self.perSecond = perSecond
    }

    /// A new page was committed in the main frame: its triggers are new.
    public mutating func newPage() {
        seen.removeAll()
    }

    /// Whether to send the event for `url` on `page` at `now` (and counts it when so).
    public mutating func admit(url: String, page: String, now: ContinuousClock.Instant = .now) -> Bool {
        let pair = [url, page]
        guard !seen.contains(pair), seen.count < Self.maxPairsPerPage else { return false }
        recent.removeAll { now - $0 >= .seconds(1) }
        guard recent.count < perSecond else { return false }
        recent.append(now)
        seen.insert(pair)
        return true
    }
}
