// AttributionClick: a stored Private Click Measurement click — two sites, a source id and a last day.

/// A click kept for attribution (API.md §11): only the two sites (registrable domains), the
/// 8-bit source id and the day it expires. No URL, description or purchaser survives.
public struct AttributionClick: Hashable, Sendable {
    /// How long a click can be attributed.
    public static let lifetimeDays = 7

    public let sourceSite: String
    public let destinationSite: String
    public let sourceID: UInt8
    /// The first day on which the click no longer counts.
    public let expires: AttributionDay

    public init(sourceSite: String, destinationSite: String, sourceID: UInt8, expires: AttributionDay) {
        self.sourceSite = sourceSite
        self.destinationSite = destinationSite
        self.sourceID = sourceID
        self.expires = expires
    }

    /// The click `attribution` describes, made at `now` (seconds since the epoch): it counts
    /// for the rest of that day and the next six, i.e. until day + 7.
    public init(_ attribution: EventAttribution, at now: Int) {
        self.init(
            sourceSite: attribution.sourceSite, destinationSite: attribution.destinationSite,
            sourceID: attribution.sourceIdentifier,
            expires: AttributionDay(containing: now).adding(days: Self.lifetimeDays))
    }

    /// Whether the click still counts at `now`.
    public func isLive(at now: Int) -> Bool { AttributionDay(containing: now) < expires }

    /// The (source, destination) pair; at most one click per pair is kept.
    public var pair: AttributionSitePair {
        AttributionSitePair(source: sourceSite, destination: destinationSite)
    }
}
