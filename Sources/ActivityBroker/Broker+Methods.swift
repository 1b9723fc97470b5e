// The behaviour of each Broker1 method, on the loop, in domain terms.
import ActivityKit
import DBus
import Foundation

extension Broker {
    /// `ListActivities`: matching (through the registry's index), available, not excluded,
    /// not the caller's own unless asked, in presentation order. No disk or process work.
    func listActivities(items: [String: Value], options: [String: Value], caller: String) throws(ActivityError)
        -> [[String: Value]]
    {
        let items = try ItemsDecoder.decode(items)
        let options = try OptionSchema.listActivities.validate(options)
        let locale = options["locale"]?.string ?? defaultLocale
        let exclusions = try Exclusions(options["exclude"]?.stringArray ?? [])
        let includeOwn = options["include_own"]?.bool ?? false
        let offered = withoutDuplicateBrowser(
            registry.matching(items.url).filter { activity in
                !exclusions.excludes(activity)
                    && (includeOwn || activity.owner != caller)
                    && availability(of: activity).isAvailable
            })
        return Ranking.order(offered, usage: usage.scores, now: clock(), locale: locale)
            .map { ActivityRecord.offered($0, locale: locale) }
    }

    /// "Open in Browser" carries the default browser's name; offering that browser's own
    /// "Open in" entry as well would show the same choice twice, so only the built-in one stays
    /// (both remain registered: `ListRegistered`, `Perform` and `Explain` know them).
    private func withoutDuplicateBrowser(_ offered: [Activity]) -> [Activity] {
        guard let defaultBrowser, offered.contains(where: { $0.id == StaticCatalog.openInBrowserID }) else {
            return offered
        }
        return offered.filter { $0.id != defaultBrowser }
    }

    /// `ListRegistered`: every activity with its availability, ordered by id.
    func listRegistered(options: [String: Value]) throws(ActivityError) -> [[String: Value]] {
        let options = try OptionSchema.listRegistered.validate(options)
        let locale = options["locale"]?.string ?? defaultLocale
        return registry.all.sorted { $0.id < $1.id }.map { activity in
            ActivityRecord.registered(activity, availability: availability(of: activity), locale: locale)
        }
    }

    /// `Explain`: whether the activity is offered for the items, and the rule that decided.
    func explain(id: String, items: [String: Value]) throws(ActivityError) -> (Bool, String) {
        let activity = try lookUp(id)
        let items = try ItemsDecoder.decode(items)
        let verdict = Explainer.explain(activity, items: items, env: machine)
        return (verdict.applies, verdict.reason)
    }

    /// `RegisterActivity`: a dynamic activity served by `caller`, gone when it disconnects.
    func register(record: [String: Value], caller: String) throws(ActivityError) {
        let activity = try RegistrationDecoder.decode(record, owner: caller)
        try registry.register(activity, owner: caller)
        watchOwner(caller)
        log.event("registered \(activity.id) (by \(caller))")
        activitiesChanged()
    }

    /// `UnregisterActivity`: only the owner may.
    func unregister(id: String, caller: String) throws(ActivityError) {
        let activityID = try ActivityID(id)
        try registry.unregister(activityID, caller: caller)
        log.event("unregistered \(activityID) (by \(caller))")
        activitiesChanged()
    }

    /// `ClearHistory`: forgets every usage score and writes the empty state.
    func clearHistory() {
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

    func excludes(_ activity: Activity) -> Bool {
        (!ids.isEmpty && ids.contains(activity.id.rawValue)) || categories.contains(activity.category)
    }
}
