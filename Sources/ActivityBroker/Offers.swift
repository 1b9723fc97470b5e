// ListActivities, ListRegistered and Explain: the offer pipeline bound to the wire, with its caches.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Dispatch
import FoundationEssentials
import Glibc

/// Answers the read-only `Broker1` methods from `ActivityState`, usage scores and a clock.
///
/// Loop-confined (`queue`). The ranked, encoded list for a URL's scheme, host and path and a
/// locale is kept (`OfferedList`) until the registry, the machine or the usage scores change
/// (`invalidate`); the per-call steps of the pipeline run on every call. No disk or process
/// work on this path.
final class Offers: @unchecked Sendable {
    private let activities: ActivityState
    private let scores: () -> UsageScores
    private let clock: @Sendable () -> Date
    private let defaultLocale: String?
    private let queue: DispatchQueue
    /// `ListActivities` records by locale ("" for none), valid until the registry changes.
    private var offeredRecords: [String: [ActivityID: Value]] = [:]
    /// Ranked `ListActivities` answers by URL scheme, host, path and locale, valid until the
    /// registry or the machine changes (and checked against the usage scores on use).
    private var offeredLists: [OfferedList.Key: OfferedList] = [:]

    init(
        activities: ActivityState, scores: @escaping () -> UsageScores, clock: @escaping @Sendable () -> Date,
        defaultLocale: String?, queue: DispatchQueue
    ) {
        self.activities = activities
        self.scores = scores
        self.clock = clock
        self.defaultLocale = defaultLocale
        self.queue = queue
    }

    /// Drops the cached lists; `records` too when the activities themselves changed.
    func invalidate(records: Bool) {
        if records { offeredRecords.removeAll() }
        offeredLists.removeAll()
    }

    /// `ListActivities`: matching, available, not excluded, not the caller's own unless asked,
    /// in presentation order, as the `aa{sv}` reply. The cached list is kept already marshalled
    /// (`EncodedReply`): an unfiltered answer is sent without encoding; a filtered one is
    /// encoded per call. Throws `ActivityError`, or `Failed` when a record cannot be encoded.
    func listActivities(items: [String: Value], options: [String: Value], caller: String) throws -> EncodedReply {
        dispatchPrecondition(condition: .onQueue(queue))
        let items = try ItemsDecoder.decode(items)
        let options = try OptionSchema.listActivities.validate(options)
        let locale = try Self.locale(options, method: "ListActivities") ?? defaultLocale
        let filter = try OfferFilter(
            exclude: options[OptionKey.exclude]?.stringArray ?? [], caller: caller,
            includeOwn: options[OptionKey.includeOwn]?.bool ?? false)
        let list = offeredList(for: items.url, locale: locale)
        let entries = filtered(list, by: filter, items: items)
        if entries.count == list.entries.count, let encoded = list.encoded { return encoded }
        return try Self.encodedList(entries.map(\.record))
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
        let list = offeredList(for: items.url, locale: locale.flatMap { $0.isEmpty ? nil : $0 } ?? defaultLocale)
        return filtered(list, by: filter, items: items).map {
            ($0.id, $0.record)
        }
    }

    /// The per-call steps on a cached list: the caller's filter, what Perform would refuse for
    /// these items (the same check, `Activity.refusal`, so an activity is offered exactly when
    /// performing it would be accepted), then the default-handler aliasing for the URL's scheme.
    private func filtered(_ list: OfferedList, by filter: OfferFilter, items: Items) -> [OfferedList.Entry] {
        let kept = list.entries.filter {
            filter.keeps(id: $0.id, owner: $0.owner, category: $0.category, visibility: $0.visibility)
                && Activity.refusal(of: $0.resolved, for: items) == nil
        }
        return DefaultHandlerAliasing.fold(
            kept, id: { $0.id }, aliases: list.aliases, schemeDefault: activities.schemeDefaults[items.url.scheme])
    }

    /// `ListRegistered`: every activity `caller` can see (not another connection's `owner`
    /// activities) with its availability, ordered by id.
    func listRegistered(options: [String: Value], caller: String) throws(ActivityError) -> [[String: Value]] {
        dispatchPrecondition(condition: .onQueue(queue))
        let options = try OptionSchema.listRegistered.validate(options)
        let locale = try Self.locale(options, method: "ListRegistered") ?? defaultLocale
        let visible = activities.registry.all.filter { $0.visibility.isVisible(owner: $0.owner, to: caller) }
        return visible.sorted { $0.id < $1.id }.map { activity in
            ActivityRecord.registered(activity, availability: activities.availability(of: activity), locale: locale)
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

    /// The `aa{sv}` reply of `records`, marshalled; `Failed` (as for any reply that cannot be
    /// encoded) if a record holds something D-Bus cannot carry.
    private static func encodedList(_ records: [Value]) throws(DBusError) -> EncodedReply {
        do {
            return try EncodedReply([.array(element: "a{sv}", records)])
        } catch {
            throw .failed("ListActivities reply could not be encoded: \(error.message)")
        }
    }

    /// The available activities for `url`, ranked and encoded for `locale`, from the cache.
    ///
    /// Usage scores all decay with the same half-life, so their order does not change with
    /// time alone: a cached ranking stays right until a use is recorded (the scores differ).
    private func offeredList(for url: SharedURL, locale: String?) -> OfferedList {
        let key = OfferedList.Key(scheme: url.scheme, host: url.host, path: url.path, locale: locale)
        let scores = scores()
        if let cached = offeredLists[key], cached.scores == scores { return cached }
        let ranked = OfferPipeline.ranked(
            in: activities.registry, for: url, isAvailable: { activities.availability(of: $0).isAvailable },
            schemeDefault: activities.schemeDefaults[url.scheme], usage: scores, now: clock(), locale: locale)
        let entries = ranked.map { activity in
            OfferedList.Entry(
                id: activity.id, owner: activity.owner, category: activity.category,
                visibility: activity.visibility, resolved: resolvedPerform(activity),
                record: offeredRecord(activity, locale: locale))
        }
        let list = OfferedList(
            scores: scores, entries: entries, aliases: Set(ranked.filter(\.defaultHandlerAlias).map(\.id)),
            encoded: try? Self.encodedList(entries.map(\.record)))
        // Keys come from callers' URLs: keep a bounded number.
        if offeredLists.count >= 512 { offeredLists.removeAll(keepingCapacity: true) }
        offeredLists[key] = list
        return list
    }

    /// What performing an available activity does, as availability resolved it.
    private func resolvedPerform(_ activity: Activity) -> PerformSpec {
        guard case .available(let resolved) = activities.availability(of: activity) else { return activity.perform }
        return resolved
    }

    /// The `a{sv}` record of `activity` for `locale`, built once and kept until the registry
    /// changes (`invalidate(records: true)`).
    private func offeredRecord(_ activity: Activity, locale: String?) -> Value {
        let key = locale ?? ""
        // An alias is named after its URL's scheme's default, so its record is not one per id.
        if activity.defaultHandlerAlias { return .vardict(ActivityRecord.offered(activity, locale: locale)) }
        if let record = offeredRecords[key]?[activity.id] { return record }
        // Locales come from callers: keep a few, not one table per string ever sent.
        if offeredRecords[key] == nil, offeredRecords.count >= 8 { offeredRecords.removeAll() }
        let record = Value.vardict(ActivityRecord.offered(activity, locale: locale))
        offeredRecords[key, default: [:]][activity.id] = record
        return record
    }
}

/// One cached `ListActivities` answer before the per-call steps: the available matches for
/// a URL's scheme, host and path, ranked, with their records for one locale.
struct OfferedList {
    struct Key: Hashable {
        let scheme: String
        let host: String?
        let path: String
        let locale: String?
    }

    struct Entry {
        let id: ActivityID
        let owner: String?
        let category: ActivityCategory
        let visibility: ActivityVisibility
        /// What Perform would do; the items are checked against it per call (`Activity.refusal`).
        let resolved: PerformSpec
        let record: Value
    }

    /// The usage scores the ranking was computed with.
    let scores: UsageScores
    let entries: [Entry]
    /// The entries that stand for the scheme's default application (`default_handler_alias`).
    let aliases: Set<ActivityID>
    /// Every entry's record, marshalled: the reply when no filter removes anything (nil if it
    /// cannot be encoded; each call then fails with `Failed`, as it did when encoded per call).
    let encoded: EncodedReply?
}
