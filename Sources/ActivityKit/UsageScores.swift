// UsageScores: per-activity usage with a 14-day half-life, stored by the broker as usage.json.

import Glibc

/// One activity's usage: the score at `lastUsed`.
public struct UsageEntry: Hashable, Sendable {
    /// The score at `lastUsed` (each completed job adds 1).
    public var score: Double
    /// When it was last used.
    public var lastUsed: Timestamp

    /// Builds an entry.
    public init(score: Double, lastUsed: Timestamp) {
        self.score = score
        self.lastUsed = lastUsed
    }
}

/// Usage ranking data (API.md §5): per activity id only a score and the time of last use — never a URL,
/// title or text. The broker stores exactly this value as usage.json. The clock is always passed in.
public struct UsageScores: Hashable, Sendable {
    /// The score halves every 14 days without use.
    public static let halfLife: Double = 14 * 86_400

    /// Activity id → entry.
    public var entries: [String: UsageEntry]

    /// Empty scores.
    public init(entries: [String: UsageEntry] = [:]) {
        self.entries = entries
    }

    /// The score of `id` decayed to `now` (0 when never used; a clock that went back does not raise it).
    public func score(of id: ActivityID, at now: Timestamp) -> Double {
        guard let e = entries[id.rawValue] else { return 0 }
        return UsageScores.decayed(e, to: now)
    }

    /// Counts one completed use: decays the old score to `now`, then adds 1.
    public mutating func recordUse(of id: ActivityID, at now: Timestamp) {
        let old = entries[id.rawValue].map { UsageScores.decayed($0, to: now) } ?? 0
        let last = max(now, entries[id.rawValue]?.lastUsed ?? now)
        entries[id.rawValue] = UsageEntry(score: old + 1, lastUsed: last)
        // Amortized: prune a tenth below the cap at once, so a stream of new ids sorts rarely.
        if entries.count > UsageScores.maxEntries {
            prune(keepingAtMost: UsageScores.maxEntries * 9 / 10, at: now)
            if entries[id.rawValue] == nil { entries[id.rawValue] = UsageEntry(score: old + 1, lastUsed: last) }
        }
    }

    /// Forgets everything (`ClearHistory`).
    public mutating func clear() {
        entries = [:]
    }

    /// Drops entries that are not finite or not positive (a hand-edited or corrupt file), and those
    /// decayed below `threshold` at `now`, so the file does not grow forever.
    public mutating func prune(at now: Timestamp, below threshold: Double = 0.001) {
        entries = entries.filter { _, e in
            e.score.isFinite && e.score > 0 && UsageScores.decayed(e, to: now) >= threshold
        }
    }

    /// At most this many entries are kept: throw-away dynamic ids must not grow the file until
    /// the broker refuses to read it (a full file is about 100 bytes per entry, far below
    /// `UsageStoreFile.sizeLimit`).
    public static let maxEntries = 2_000

    /// Keeps at most `limit` entries, dropping the least used (lowest score decayed to `now`;
    /// the oldest on a tie) first. Returns how many were dropped.
    @discardableResult
    public mutating func prune(keepingAtMost limit: Int, at now: Timestamp) -> Int {
        guard entries.count > limit else { return 0 }
        let ranked = entries.sorted { a, b in
            let (x, y) = (UsageScores.decayed(a.value, to: now), UsageScores.decayed(b.value, to: now))
            if x != y { return x > y }
            if a.value.lastUsed != b.value.lastUsed { return a.value.lastUsed > b.value.lastUsed }
            return a.key < b.key
        }
        let dropped = entries.count - limit
        entries = Dictionary(uniqueKeysWithValues: ranked.prefix(limit).map { ($0.key, $0.value) })
        return dropped
    }

    static func decayed(_ e: UsageEntry, to now: Timestamp) -> Double {
        guard e.score.isFinite, e.score > 0 else { return 0 }
        let age = max(0, now.seconds(since: e.lastUsed))
        return e.score * pow(0.5, age / halfLife)
    }
}
