// AttributionReport: a pending Private Click Measurement report, its JSON body and its two destinations.

/// A report waiting to be sent (API.md §11): the click's sites and source id, the trigger's
/// data, priority and day, when it may be sent, and which of its two destinations already
/// answered.
///
/// `sendAfter` is an exact instant in memory (seconds since the epoch), drawn 24–48 h after
/// the trigger; the store file keeps only days (see `AttributionStoreFormat`), and a report
/// read back after a restart is due at `restartSendTime`. Made only by the domain
/// (`AttributionStore`, its file format), so the compiler's memberwise initializer serves.
public struct AttributionReport: Hashable, Sendable {
    public static let wellKnownPath = "/.well-known/private-click-measurement/report-attribution/"
    /// How many times a report is tried in all: once, then one retry.
    public static let maximumAttempts = 2
    /// The wait before the retry after a network error.
    public static let retryDelay = 3600

    /// The two places a report goes to: the site that showed the ad, then the advertised site.
    /// Each is tracked on its own, so a retry goes only where the first attempt failed.
    public enum Endpoint: String, CaseIterable, Hashable, Sendable {
        case source, destination
    }

    public let sourceSite: String
    public let destinationSite: String
    public let sourceID: UInt8
    public internal(set) var triggerData: UInt8
    public internal(set) var priority: UInt8
    /// The UTC day of the trigger that made the report: what bounds its send time after a restart.
    public let triggerDay: AttributionDay
    public internal(set) var sendAfter: Int
    /// Failed sends so far.
    public internal(set) var attempts = 0
    /// The endpoints that answered already (any HTTP status): never posted to again.
    public internal(set) var answered: Set<Endpoint> = []

    public var pair: AttributionSitePair {
        AttributionSitePair(source: sourceSite, destination: destinationSite)
    }

    /// When a report read back after a restart is due: 00:00 UTC two days after its trigger's day.
    ///
    /// The exact send time was never written down (the file keeps days), and the trigger's
    /// time is known only to the day. That midnight is the one instant 24 to 48 hours after
    /// every moment of the trigger's day (a trigger at 00:00 is 48 h before it, one at 23:59:59
    /// just over 24 h), so the report still goes out inside its window, whenever in the day the
    /// trigger came; past it (the broker was not running), the report is late and goes at once.
    public var restartSendTime: Int { triggerDay.adding(days: 2).start }

    /// The POST body, byte for byte in WebKit's key order:
    /// `{"source_engagement_type":"click","source_site":…,"source_id":…,"attributed_on_site":…,"trigger_data":…,"version":3}`.
    public var json: String {
        "{\"source_engagement_type\":\"click\",\"source_site\":\(JSONText.quoted(sourceSite)),\"source_id\":\(sourceID),"
            + "\"attributed_on_site\":\(JSONText.quoted(destinationSite)),\"trigger_data\":\(triggerData),\"version\":3}"
    }

    /// The two URLs the report goes to: the source site's well-known path, then the destination's.
    public var destinations: [String] { Endpoint.allCases.map(url(of:)) }

    /// The endpoints still waiting for the report, source first.
    public var unanswered: [Endpoint] { Endpoint.allCases.filter { !answered.contains($0) } }

    /// The well-known report URL of `endpoint`'s site.
    public func url(of endpoint: Endpoint) -> String {
        Self.endpoint(site: endpoint == .source ? sourceSite : destinationSite)
    }

    /// `https://<site>/.well-known/private-click-measurement/report-attribution/` (IPv6 in brackets).
    public static func endpoint(site: String) -> String {
        let host = site.contains(":") ? "[\(site)]" : site
        return "https://\(host)\(wellKnownPath)"
    }
}
