// The offer pipeline's pure steps: match → availability → default handler → ranking, then per call exclusions, own activities and the alias fold.

/// What `ListActivities` offers, step by step, without the wire or any cache.
///
/// The first steps depend only on the URL, the machine, the usage scores and the locale, so the
/// service computes them once per URL and keeps the result (`ranked`); the per-call steps
/// (`OfferFilter`, then `DefaultHandlerAliasing.fold`) keep the order and run on every call.
public enum OfferPipeline {
    /// Match (through the registry's index), availability, the default application of the
    /// URL's scheme (`DefaultHandlerAliasing.prepare`), ranking.
    public static func ranked(
        in registry: Registry, for url: SharedURL, isAvailable: (Activity) -> Bool, schemeDefault: SchemeDefault? = nil,
        usage: UsageScores, now: Timestamp, locale: String?
    ) -> [Activity] {
        let available = DefaultHandlerAliasing.prepare(registry.matching(url).filter(isAvailable), schemeDefault: schemeDefault)
        return Ranking.order(available, usage: usage, now: now, locale: locale)
    }

    /// `ranked` for every page of a site (a URL's scheme and host) at once: the activities whose
    /// scheme and host rules accept it, whatever their path prefixes. Ranking orders any two
    /// activities the same whichever others are present, so `ranked(for: url)` is this list
    /// with the entries whose `match.pathMatches(url.path)` fails left out, in the same order.
    public static func rankedForSite(
        in registry: Registry, scheme: String, host: String?, isAvailable: (Activity) -> Bool,
        schemeDefault: SchemeDefault? = nil, usage: UsageScores, now: Timestamp, locale: String?
    ) -> [Activity] {
        rankedForSite(
            in: registry, scheme: scheme, host: host, isAvailable: isAvailable, schemeDefault: schemeDefault,
            usage: usage, now: now, names: LocaleCandidates(locale))
    }

    /// `rankedForSite` with the locale's lookup keys already built (the service names the
    /// same activities for the same locale next).
    public static func rankedForSite(
        in registry: Registry, scheme: String, host: String?, isAvailable: (Activity) -> Bool,
        schemeDefault: SchemeDefault? = nil, usage: UsageScores, now: Timestamp, names: LocaleCandidates
    ) -> [Activity] {
        let available = DefaultHandlerAliasing.prepare(
            registry.matching(scheme: scheme, host: host).filter(isAvailable), schemeDefault: schemeDefault)
        return Ranking.order(available, usage: usage, now: now, names: names)
    }
}

/// The per-call step: what the caller excluded, its own `others` activities unless it asked
/// for them, and other connections' `owner` activities always.
public struct OfferFilter: Sendable {
    @usableFromInline let exclusions: Exclusions
    /// The unique name of the calling connection.
    @usableFromInline let caller: String
    @usableFromInline let includeOwn: Bool

    /// The filter of a call by `caller` with the options `exclude` and `include_own`; throws
    /// `invalidArgument` for an `exclude` entry that names no category (see `Exclusions`).
    public init(exclude: [String], caller: String, includeOwn: Bool) throws(ActivityError) {
        exclusions = try Exclusions(exclude)
        self.caller = caller
        self.includeOwn = includeOwn
    }

    /// Whether an offered activity with this id, owner, category and visibility stays in the
    /// answer: an `owner` activity only for its owner (whatever `include_own` says), an
    /// `others` one for everyone but its owner unless `include_own`.
    /// Inlinable: it runs for every offered activity of every `ListActivities`.
    @inlinable
    public func keeps(
        id: ActivityID, owner: String?, category: ActivityCategory, visibility: ActivityVisibility = .others
    ) -> Bool {
        guard !exclusions.excludes(id: id, category: category) else { return false }
        switch visibility {
        case .others: return includeOwn || owner != caller
        case .owner: return owner == caller
        }
    }
}
