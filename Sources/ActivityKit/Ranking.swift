// Ranking: the presentation order of ListActivities (API.md §5).

/// Orders activities for presentation.
public enum Ranking {
    /// `share` before `action`; within a category decayed usage score descending, then `priority`
    /// descending, then localized name ascending (case- and diacritic-insensitive, then exact), then id.
    public static func order(_ activities: [Activity], usage: UsageScores, now: Timestamp, locale: String?)
        -> [Activity]
    {
        order(activities, usage: usage, now: now, names: LocaleCandidates(locale))
    }

    /// `order` with the locale's lookup keys already built (a caller that also names the
    /// activities for that locale builds them once).
    public static func order(
        _ activities: [Activity], usage: UsageScores, now: Timestamp, names candidates: LocaleCandidates
    ) -> [Activity] {
        // Keys are computed once and indices sorted: comparing moves small values, not activities.
        let scores = activities.map { usage.score(of: $0.id, at: now) }
        let names = activities.map { $0.localizedName(in: candidates) }
        let shares = activities.map { $0.category == .share }
        let priorities = activities.map(\.priority)
        let ids = activities.map(\.id)
        // Folding case and diacritics costs microseconds a name; for
        // ASCII names (the common case) comparing lower-cased bytes gives the same order.
        let folded = names.map(asciiFolded)
        let order = activities.indices.sorted { i, j in
            if shares[i] != shares[j] { return shares[i] }
            if scores[i] != scores[j] { return scores[i] > scores[j] }
            if priorities[i] != priorities[j] { return priorities[i] > priorities[j] }
            if let a = folded[i], let b = folded[j] {
                if a != b { return a.lexicographicallyPrecedes(b) }
            } else {
                let a = UnicodeNormalization.caseAndDiacriticFolded(names[i])
                let b = UnicodeNormalization.caseAndDiacriticFolded(names[j])
                if a != b { return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) }
            }
            if names[i] != names[j] { return names[i] < names[j] }
            return ids[i] < ids[j]
        }
        return order.map { activities[$0] }
    }

    /// The name's bytes with A–Z lower-cased, or nil when it is not all ASCII.
    private static func asciiFolded(_ name: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        for byte in name.utf8 {
            if byte >= 0x80 { return nil }
            bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
        }
        return bytes
    }
}
