// The offer pipeline's default-handler step: the scheme's default application ranks first, and an alias takes its name.

/// The default application of a URL's scheme, as the offer pipeline needs it.
public struct SchemeDefault: Hashable, Sendable {
    /// The application's own "Open in <App>" activity, when it has one.
    public var activityID: ActivityID?
    /// "Open in <App>", unlocalized.
    public var name: String
    /// "Open in <App>" by locale (`OpenInPhrase.names`).
    public var names: [String: String]

    public init(activityID: ActivityID?, name: String, names: [String: String]) {
        self.activityID = activityID
        self.name = name
        self.names = names
    }
}

/// Applies a scheme's default application to the activities matching a URL of that scheme
/// (API.md §4.1, manifest key `default_handler_alias`). Pure; no activity id is special.
///
/// Two steps, because the broker ranks and caches before its per-call filters:
/// `prepare` before ranking (the default's own entry gets `defaultPriority`, every alias
/// takes the default's names), `fold` after the filters (where an alias is still offered,
/// the default's own entry is dropped: it would be the same choice twice).
public enum DefaultHandlerAliasing {
    /// The priority the default application's own entry ranks with among the applications.
    public static let defaultPriority = 10

    /// Renames the aliases after `schemeDefault` and raises its own entry; unchanged when
    /// the scheme has no default.
    public static func prepare(_ activities: [Activity], schemeDefault: SchemeDefault?) -> [Activity] {
        guard let schemeDefault else { return activities }
        return activities.map { activity in
            var activity = activity
            if activity.defaultHandlerAlias {
                activity.name = schemeDefault.name
                activity.names = schemeDefault.names
            } else if activity.id == schemeDefault.activityID {
                activity.priority = max(activity.priority, defaultPriority)
            }
            return activity
        }
    }

    /// `offered` without the default's own entry when an alias (one of `aliases`) is offered
    /// too; unchanged otherwise (an alias the caller excluded leaves the default's entry in).
    /// Inlinable: it runs on every `ListActivities` and is specialized for the service's entries.
    @inlinable
    public static func fold<Offer>(
        _ offered: [Offer], id: (Offer) -> ActivityID, aliases: Set<ActivityID>, schemeDefault: SchemeDefault?
    ) -> [Offer] {
        guard let own = schemeDefault?.activityID, !aliases.isEmpty, offered.contains(where: { aliases.contains(id($0)) })
        else { return offered }
        return offered.filter { id($0) != own }
    }
}
