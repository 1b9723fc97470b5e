// ListActivities, ListRegistered and Explain: the offer pipeline bound to the wire, with its caches.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Dispatch
import Glibc

/// Answers the read-only `Broker1` methods from `ActivityState`, usage scores and a clock.
///
/// Loop-confined (`queue`). The ranked offers for a site (a URL's scheme and host) and a
/// locale are kept (`OffersForSite`), with the marshalled answers given from them (within one
/// byte budget for all sites, `OffersReplyCache`), until the registry, the machine or the
/// usage of one of them changes (`invalidate`); the per-call
/// steps of the pipeline (path, filter, refusal, aliasing) run on every call. No disk or
/// process work on this path.
final class Offers: @unchecked Sendable {
    private let activities: ActivityState
    private let scores: () -> UsageScores
    private let clock: @Sendable () -> Timestamp
    private let defaultLocale: String?
    private let queue: DispatchQueue
    /// `ListActivities` records by the locale's lookup keys (none: the plain names), valid
    /// until the registry changes.
    private var offeredRecords: [LocaleCandidates: [ActivityID: Value]] = [:]
    /// Ranked offers by URL scheme, host and locale, valid until the registry or the machine
    /// changes (and checked against the usage scores on use).
    private var sites: [OffersForSite.Key: OffersForSite] = [:]
    /// Sites kept: keys come from callers' URLs.
    static let maximumSites = 512
    /// The sites' marshalled answers, under one byte budget for all of them.
    private let replies: OffersReplyCache
    /// The serial of the next ranking (`OffersForSite.serial`).
    private var nextSerial: UInt64 = 0

    init(
        activities: ActivityState, scores: @escaping () -> UsageScores, clock: @escaping @Sendable () -> Timestamp,
        defaultLocale: String?, queue: DispatchQueue, replyBudget: Int = OffersReplyCache.defaultBudget
    ) {
        self.activities = activities
        self.scores = scores
        self.clock = clock
        self.defaultLocale = defaultLocale
        self.queue = queue
        replies = OffersReplyCache(budget: replyBudget)
    }

    /// The bytes of the marshalled answers kept, never over the reply budget (for tests).
    var cachedReplyBytes: Int {
        dispatchPrecondition(condition: .onQueue(queue))
        return replies.bytes
    }

    /// The sites whose ranked offers are kept (for tests).
    var cachedSites: Int {
        dispatchPrecondition(condition: .onQueue(queue))
        return sites.count
    }

    /// Drops the cached offers; `records` too when the activities themselves changed.
    func invalidate(records: Bool) {
        if records { offeredRecords.removeAll() }
        sites.removeAll()
        replies.removeAll()
    }

    /// Drops what one registration can have changed, given the versions of its activity
    /// before and after: their records, and the sites whose URLs either version matches (only
    /// there could the ranked list differ; elsewhere the candidates are the same). The
    /// marshalled answers of the sites kept stay right: none of them holds either version.
    func invalidate(changed versions: [Activity]) {
        for names in offeredRecords.keys {
            for version in versions { offeredRecords[names]?[version.id] = nil }
        }
        let stale = sites.keys.filter { key in
            versions.contains { $0.match.matches(scheme: key.scheme, host: key.host) }
        }
        for key in stale { sites[key] = nil }
    }

    /// `ListActivities`: matching, available, not excluded, not the caller's own unless asked,
    /// in presentation order, as the `aa{sv}` reply, marshalled once for each set of entries a
    /// site's calls keep and kept within the reply budget (`OffersReplyCache`). Throws `ActivityError`, or `Failed` when a
    /// record cannot be encoded.
    func listActivities(items: [String: Value], options: [String: Value], caller: String) throws -> EncodedReply {
        dispatchPrecondition(condition: .onQueue(queue))
        let items = try ItemsDecoder.decode(items)
        let options = try OptionSchema.listActivities.validate(options)
        let locale = try Self.locale(options, method: "ListActivities") ?? defaultLocale
        let filter = try OfferFilter(
            exclude: options[OptionKey.exclude]?.stringArray ?? [], caller: caller,
            includeOwn: options[OptionKey.includeOwn]?.bool ?? false)
        let site = offers(for: items.url, locale: locale)
        return try site.reply(
            for: site.offered(for: items, filter: filter, schemeDefault: activities.schemeDefaults[items.url.scheme]),
            in: replies)
    }

    /// What a `Share` sheet offers `caller`: what `ListActivities` would answer it without
    /// `include_own` (its `owner` activities in, its `others` ones out), with `exclude`
    /// applied, in presentation order, as ids with their records for `locale`.
    func offeredForShare(items: Items, locale: String?, exclude: [String], caller: String) throws(ActivityError)
        -> [(id: ActivityID, record: Value)]
    {
        dispatchPrecondition(condition: .onQueue(queue))
        let filter = try OfferFilter(exclude: exclude, caller: caller, includeOwn: false)
        if let locale, !locale.isEmpty { try LocaleName.validate(locale, what: "Share: option '\(OptionKey.locale)'") }
        let site = offers(for: items.url, locale: locale.flatMap { $0.isEmpty ? nil : $0 } ?? defaultLocale)
        return site.offered(for: items, filter: filter, schemeDefault: activities.schemeDefaults[items.url.scheme]).map {
            (site.entries[$0].id, site.entries[$0].record)
        }
    }

    /// `ListRegistered`: every activity `caller` can see (not another connection's `owner`
    /// activities) with its availability, ordered by id.
    func listRegistered(options: [String: Value], caller: String) throws(ActivityError) -> [[String: Value]] {
        dispatchPrecondition(condition: .onQueue(queue))
        let options = try OptionSchema.listRegistered.validate(options)
        let locale = try Self.locale(options, method: "ListRegistered") ?? defaultLocale
        let visible = activities.registry.all.filter { $0.visibility.isVisible(owner: $0.owner, to: caller) }
        let candidates = LocaleCandidates(locale)
        return visible.sorted { $0.id < $1.id }.map { activity in
            ActivityRecord.registered(activity, availability: activities.availability(of: activity), candidates: candidates)
        }
    }

    /// `Explain`: whether the activity is offered for the items, and the rule that decided;
    /// `NotFound` for another connection's `owner` activity, as for an unknown id.
    func explain(id: String, items: [String: Value], caller: String) throws(ActivityError) -> (Bool, String) {
        dispatchPrecondition(condition: .onQueue(queue))
        let activity = try activities.lookUp(id, caller: caller)
        let items = try ItemsDecoder.decode(items)
        let verdict = activities.explain(activity, items: items)
        return (verdict.applies, verdict.reason)
    }

    /// The `locale` option, checked (`LocaleName`): it becomes a cache key.
    private static func locale(_ options: [String: Value], method: String) throws(ActivityError) -> String? {
        // An empty locale asks for the default names, as it always did.
        guard let locale = options[OptionKey.locale]?.string, !locale.isEmpty else { return nil }
        try LocaleName.validate(locale, what: "\(method): option '\(OptionKey.locale)'")
        return locale
    }

    /// The available activities for `url`'s site, ranked with their records for `locale`,
    /// from the cache.
    ///
    /// Usage scores all decay with the same half-life, so their order does not change with
    /// time alone: a cached ranking stays right until a use of one of its activities is recorded.
    private func offers(for url: SharedURL, locale: String?) -> OffersForSite {
        let key = OffersForSite.Key(scheme: url.scheme, host: url.host, locale: locale)
        let scores = scores()
        if let cached = sites[key], cached.isCurrent(with: scores) { return cached }
        let candidates = LocaleCandidates(locale)
        let ranked = OfferPipeline.rankedForSite(
            in: activities.registry, scheme: url.scheme, host: url.host,
            isAvailable: { activities.availability(of: $0).isAvailable },
            schemeDefault: activities.schemeDefaults[url.scheme], usage: scores, now: clock(), names: candidates)
        nextSerial += 1
        let site = OffersForSite(serial: nextSerial, ranked: ranked, scores: scores) { activity in
            let target: TargetURLCheck? =
                if case .open(let spec) = resolvedPerform(activity) { TargetURLCheck(spec) } else { nil }
            return OffersForSite.Entry(
                id: activity.id, owner: activity.owner, category: activity.category, visibility: activity.visibility,
                match: activity.match, target: target, record: offeredRecord(activity, names: candidates))
        }
        if sites.count >= Self.maximumSites { sites.removeAll(keepingCapacity: true) }
        sites[key] = site
        return site
    }

    /// What performing an available activity does, as availability resolved it.
    private func resolvedPerform(_ activity: Activity) -> PerformSpec {
        guard case .available(let resolved) = activities.availability(of: activity) else { return activity.perform }
        return resolved
    }

    /// The `a{sv}` record of `activity` named for a locale's `candidates` (built once by the
    /// caller for all its activities), built once and kept until the registry changes
    /// (`invalidate(records: true)`). Kept per candidates, not per locale string: locales that
    /// name the same way (`de_DE`, `de_DE.UTF-8`) share their records.
    private func offeredRecord(_ activity: Activity, names candidates: LocaleCandidates) -> Value {
        let key = candidates
        // An alias is named after its URL's scheme's default, so its record is not one per id.
        if activity.defaultHandlerAlias { return .vardict(ActivityRecord.offered(activity, candidates: candidates)) }
        if let record = offeredRecords[key]?[activity.id] { return record }
        // Locales come from callers: keep a few, not one table per string ever sent.
        if offeredRecords[key] == nil, offeredRecords.count >= 8 { offeredRecords.removeAll() }
        let record = Value.vardict(ActivityRecord.offered(activity, candidates: candidates))
        offeredRecords[key, default: [:]][activity.id] = record
        return record
    }
}
