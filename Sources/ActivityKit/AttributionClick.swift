// AttributionClick: a stored Private Click Measurement click — two sites, a source id and a last day.

/// A click kept for attribution (API.md §11): only the two sites (registrable domains), the
/// 8-bit source id and the day it expires. No URL, description or purchaser survives.
public struct AttributionClick: Hashable, Sendable {
    /// How long a click can be attributed.
    public static let lifetimeDays = 7

    /// The source and destination sites: the click's key, at most one click per pair.
    public let pair: AttributionSitePair
    public let sourceID: UInt8
    /// The first day on which the click no longer counts.
    public let expires: AttributionDay

    /// A click as the store file holds it; public clicks come from `init(_:at:)`.
    init(pair: AttributionSitePair, sourceID: UInt8, expires: AttributionDay) {
        self.pair = pair
        self.sourceID = sourceID
        self.expires = expires
    }

    /// The click `attribution` describes, made at `now` (seconds since the epoch): it counts
    /// for the rest of that day and the next six, i.e. until day + 7.
    public init(_ attribution: EventAttribution, at now: Int) {
        self.init(
            pair: AttributionSitePair(
                source: attribution.sourceSite, destination: attribution.destinationSite),
            sourceID: attribution.sourceIdentifier,
            expires: AttributionDay(containing: now).adding(days: Self.lifetimeDays))
    }

    /// Whether the click still counts at `now`.
    public func isLive(at now: Int) -> Bool { AttributionDay(containing: now) < expires }

    /// The registrable domain of the page the click happened on (the pair's source).
    public var sourceSite: String { pair.source }
    /// The registrable domain of the ad's destination (the pair's destination).
    public var destinationSite: String { pair.destination }
}
