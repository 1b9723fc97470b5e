// The behaviour of each Broker1 method, on the loop, in domain terms.
import ActivityKit
import DBus
import Foundation

extension Broker {
    /// `ListActivities`: matching (through the registry's index), available, not excluded,
    /// not the caller's own unless asked, in presentation order, as the `aa{sv}` reply.
    /// No disk or process work. The ranked, encoded list for a URL's scheme, host and path
    /// and the locale is kept (`offeredLists`) until the registry, the machine or the usage
    /// scores change; the caller's own activities and `exclude` are filtered per call. The
    /// cached list is kept already marshalled (`EncodedReply`): an unfiltered answer is sent
    /// without encoding; a filtered one is encoded per call. Throws `ActivityError`, or `Failed`
    /// when a record cannot be encoded.
    func listActivities(items: [String: Value], options: [String: Value], caller: String) throws -> EncodedReply {
        connection.assertOnLoop()
        let items = try ItemsDecoder.decode(items)
        let options = try OptionSchema.listActivities.validate(options)
        let locale = options["locale"]?.string ?? defaultLocale
        let exclusions = try Exclusions(options["exclude"]?.stringArray ?? [])
        let includeOwn = options["include_own"]?.bool ?? false
        let list = offeredList(for: items.url, locale: locale)
        let keep = { (entry: OfferedList.Entry) in
            !exclusions.excludes(id: entry.id, category: entry.category) && (includeOwn || entry.owner != caller)
        }
        let entries = withoutDuplicateBrowser(list.entries.filter(keep))
        if entries.count == list.entries.count, let encoded = list.encoded { return encoded }
        return try Self.encodedList(entries.map(\.record))
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
        let scores = usage.scores
        if let cached = offeredLists[key], cached.scores == scores { return cached }
        let available = registry.matching(url).filter { availability(of: $0).isAvailable }
        let ranked = Ranking.order(available, usage: scores, now: clock(), locale: locale)
        let entries = ranked.map { activity in
            OfferedList.Entry(
                id: activity.id, owner: activity.owner, category: activity.category,
                record: offeredRecord(activity, locale: locale))
        }
        let list = OfferedList(scores: scores, entries: entries, encoded: try? Self.encodedList(entries.map(\.record)))
        // Keys come from callers' URLs: keep a bounded number.
        if offeredLists.count >= 512 { offeredLists.removeAll(keepingCapacity: true) }
        offeredLists[key] = list
        return list
    }

    /// The `a{sv}` record of `activity` for `locale`, built once and kept until the registry
    /// changes (`activitiesChanged` empties the cache).
    private func offeredRecord(_ activity: Activity, locale: String?) -> Value {
        let key = locale ?? ""
        if let record = offeredRecords[key]?[activity.id] { return record }
        // Locales come from callers: keep a few, not one table per string ever sent.
        if offeredRecords[key] == nil, offeredRecords.count >= 8 { offeredRecords.removeAll() }
        let record = Value.vardict(ActivityRecord.offered(activity, locale: locale))
        offeredRecords[key, default: [:]][activity.id] = record
        return record
    }

    /// "Open in Browser" carries the default browser's name; offering that browser's own
    /// "Open in" entry as well would show the same choice twice, so only the built-in one stays
    /// (both remain registered: `ListRegistered`, `Perform` and `Explain` know them).
    private func withoutDuplicateBrowser(_ offered: [OfferedList.Entry]) -> [OfferedList.Entry] {
        guard let defaultBrowser, offered.contains(where: { $0.id == StaticCatalog.openInBrowserID }) else {
            return offered
        }
        return offered.filter { $0.id != defaultBrowser }
    }

    /// `ListRegistered`: every activity with its availability, ordered by id.
    func listRegistered(options: [String: Value]) throws(ActivityError) -> [[String: Value]] {
        connection.assertOnLoop()
        let options = try OptionSchema.listRegistered.validate(options)
        let locale = options["locale"]?.string ?? defaultLocale
        return registry.all.sorted { $0.id < $1.id }.map { activity in
            ActivityRecord.registered(activity, availability: availability(of: activity), locale: locale)
        }
    }

    /// `Explain`: whether the activity is offered for the items, and the rule that decided.
    func explain(id: String, items: [String: Value]) throws(ActivityError) -> (Bool, String) {
        connection.assertOnLoop()
        let activity = try lookUp(id)
        let items = try ItemsDecoder.decode(items)
        let verdict = Explainer.explain(activity, items: items, env: machine)
        return (verdict.applies, verdict.reason)
    }

    /// `RegisterActivity`: a dynamic activity served by `caller`, gone when it disconnects.
    func register(record: [String: Value], caller: String) throws(ActivityError) {
        connection.assertOnLoop()
        let activity = try RegistrationDecoder.decode(record, owner: caller)
        try registry.register(activity, owner: caller)
        watchOwner(caller)
        log.event("registered \(activity.id) (by \(caller))")
        activitiesChanged()
    }

    /// `UnregisterActivity`: only the owner may.
    func unregister(id: String, caller: String) throws(ActivityError) {
        connection.assertOnLoop()
        let activityID = try ActivityID(id)
        try registry.unregister(activityID, caller: caller)
        log.event("unregistered \(activityID) (by \(caller))")
        activitiesChanged()
    }

    /// `ClearHistory`: forgets every usage score and writes the empty state.
    func clearHistory() {
        connection.assertOnLoop()
        usage.clear()
        log.event("usage history cleared")
    }

    /// The activity with this id, or `notFound`.
    func lookUp(_ id: String) throws(ActivityError) -> Activity {
        let activityID = try ActivityID(id)
        guard let activity = registry.activity(activityID) else {
            throw .notFound("no activity '\(id)' is registered (see ListRegistered or 'share activities')")
        }
        return activity
    }

    /// Removes a connection's registrations when it leaves the bus.
    private func watchOwner(_ owner: String) {
        guard ownerWatches[owner] == nil else { return }
        ownerWatches[owner] = connection.watchDisconnect(of: owner) { [unowned self] in
            ownerWatches[owner] = nil
            let removed = registry.removeAll(ownedBy: owner)
            guard !removed.isEmpty else { return }
            log.event("\(owner) left the bus; removed \(removed.count) of its activities")
            activitiesChanged()
        }
    }
}

/// The `exclude` option: activity ids and `category:share` / `category:action`.
struct Exclusions {
    private var ids: Set<String> = []
    private var categories: Set<ActivityCategory> = []

    init(_ entries: [String]) throws(ActivityError) {
        for entry in entries {
            if entry.hasPrefix("category:") {
                let name = String(entry.dropFirst("category:".count))
                guard let category = ActivityCategory(rawValue: name) else {
                    throw .invalidArgument(
                        "ListActivities: exclude entry '\(entry)' names no category (use category:share or category:action)")
                }
                categories.insert(category)
            } else {
                ids.insert(entry)
            }
        }
    }

    func excludes(id: ActivityID, category: ActivityCategory) -> Bool {
        (!ids.isEmpty && ids.contains(id.rawValue)) || (!categories.isEmpty && categories.contains(category))
    }
}

/// One cached `ListActivities` answer before the per-call filters: the available matches for
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
        let record: Value
    }

    /// The usage scores the ranking was computed with.
    let scores: UsageScores
    let entries: [Entry]
    /// Every entry's record, marshalled: the reply when no filter removes anything (nil if it
    /// cannot be encoded; each call then fails with `Failed`, as it did when encoded per call).
    let encoded: EncodedReply?
}
