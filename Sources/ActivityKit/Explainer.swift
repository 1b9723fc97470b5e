// Explainer: why an activity is or is not offered for some items, in one sentence (Explain, API.md §3).

/// Explains the decision of `ListActivities` for one activity.
public enum Explainer {
    /// One sentence naming the rule that decided: the scheme, host or path rule, an unmet
    /// requirement, an `open` template producing a URL that may not be opened, or, when it applies,
    /// every rule that held ("matches: scheme 'https' is one of http, https; any host; any path").
    public static func explain(_ activity: Activity, items: Items, env: some Environment) -> (
        applies: Bool, reason: String
    ) {
        let verdict = activity.match.evaluate(items.url)
        guard verdict.applies else { return (false, verdict.reason) }
        switch activity.availability(in: env) {
        case .unavailable(let reason):
            return (false, "the URL matches, but it is unavailable: \(reason)")
        case .available(let resolved):
            if let refusal = Activity.refusal(of: resolved, for: items) {
                return (false, "the URL matches, but \(refusal.message)")
            }
            return (true, verdict.reason)
        }
    }
}
