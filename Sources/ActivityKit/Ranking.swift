// Ranking: the presentation order of ListActivities (API.md §5).

import Foundation

/// Orders activities for presentation.
public enum Ranking {
    /// `share` before `action`; within a category decayed usage score descending, then `priority`
    /// descending, then localized name ascending (case- and diacritic-insensitive, then exact), then id.
    public static func order(_ activities: [Activity], usage: UsageScores, now: Date, locale: String?) -> [Activity] {
        let keyed = activities.map { a in
            (a, usage.score(of: a.id, at: now), a.localizedName(for: locale))
        }
        return keyed.sorted { l, r in
            if l.0.category != r.0.category { return l.0.category == .share }
            if l.1 != r.1 { return l.1 > r.1 }
            if l.0.priority != r.0.priority { return l.0.priority > r.0.priority }
            let c = l.2.compare(r.2, options: [.caseInsensitive, .diacriticInsensitive])
            if c != .orderedSame { return c == .orderedAscending }
            if l.2 != r.2 { return l.2 < r.2 }
            return l.0.id < r.0.id
        }.map(\.0)
    }
}
