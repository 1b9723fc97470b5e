// AttributionReport: a pending Private Click Measurement report, its JSON body and its two destinations.

/// A report waiting to be sent (API.md §11): the click's sites and source id, the trigger's
/// data and priority, and when it may be sent.
///
/// `sendAfter` is an exact instant in memory (seconds since the epoch), drawn 24–48 h after
/// the trigger; the store file keeps only its day (see `AttributionStoreFormat`).
public struct AttributionReport: Hashable, Sendable {
    public static let wellKnownPath = "/.well-known/private-click-measurement/report-attribution/"
    /// How many times a report is tried in all: once, then one retry.
    public static let maximumAttempts = 2
    /// The wait before the retry after a network error.
    public static let retryDelay = 3600

    public let sourceSite: String
    public let destinationSite: String
    public let sourceID: UInt8
    public internal(set) var triggerData: UInt8
    public internal(set) var priority: UInt8
    public internal(set) var sendAfter: Int
    /// Failed sends so far.
    public internal(set) var attempts: Int

    public init(
        sourceSite: String, destinationSite: String, sourceID: UInt8, triggerData: UInt8, priority: UInt8,
        sendAfter: Int, attempts: Int = 0
    ) {
        self.sourceSite = sourceSite
        self.destinationSite = destinationSite
        self.sourceID = sourceID
        self.triggerData = triggerData
        self.priority = priority
        self.sendAfter = sendAfter
        self.attempts = attempts
    }

    public var pair: AttributionSitePair {
        AttributionSitePair(source: sourceSite, destination: destinationSite)
    }

    /// The POST body, byte for byte in WebKit's key order:
    /// `{"source_engagement_type":"click","source_site":…,"source_id":…,"attributed_on_site":…,"trigger_data":…,"version":3}`.
    public var json: String {
        "{\"source_engagement_type\":\"click\",\"source_site\":\(Self.quoted(sourceSite)),\"source_id\":\(sourceID),"
            + "\"attributed_on_site\":\(Self.quoted(destinationSite)),\"trigger_data\":\(triggerData),\"version\":3}"
    }

    /// The two URLs the report goes to: the source site's well-known path, then the destination's.
    public var destinations: [String] {
        [Self.endpoint(site: sourceSite), Self.endpoint(site: destinationSite)]
    }

    /// `https://<site>/.well-known/private-click-measurement/report-attribution/` (IPv6 in brackets).
    public static func endpoint(site: String) -> String {
        let host = site.contains(":") ? "[\(site)]" : site
        return "https://\(host)\(wellKnownPath)"
    }

    /// A JSON string literal. Sites are host names, but escaping keeps the body JSON whatever they hold.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
