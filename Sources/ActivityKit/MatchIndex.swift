// MatchIndex: the registry's lookup structure from URL scheme and host to candidate activities.

/// scheme → { any-host ids, exact host → ids, domain of a `*.domain` glob → ids }.
///
/// A lookup costs a few dictionary hits (the host, then each parent domain of the host), not a scan
/// of every rule; path prefixes are then checked on the few candidates by the registry. Updates are
/// incremental, so registering one activity touches only its own keys.
struct MatchIndex: Sendable {
    struct Bucket: Sendable {
        var anyHost: Set<ActivityID> = []
        var exact: [String: Set<ActivityID>] = [:]
        var suffix: [String: Set<ActivityID>] = [:]

        var isEmpty: Bool { anyHost.isEmpty && exact.isEmpty && suffix.isEmpty }
    }

    private(set) var buckets: [String: Bucket] = [:]

    mutating func insert(_ id: ActivityID, _ rule: MatchRule) {
        update(id, rule) { set in set.insert(id) }
    }

    mutating func remove(_ id: ActivityID, _ rule: MatchRule) {
        update(id, rule) { set in set.remove(id) }
    }

    private mutating func update(
        _ id: ActivityID, _ rule: MatchRule, _ change: (inout Set<ActivityID>) -> Void
    ) {
        for scheme in rule.schemes {
            var bucket = buckets.removeValue(forKey: scheme) ?? Bucket()
            if rule.matchesAnyHost {
                change(&bucket.anyHost)
            } else {
                for pattern in rule.hosts ?? [] {
                    switch pattern.kind {
                    case .any:
                        break  // covered by matchesAnyHost
                    case .exact(let h):
                        MatchIndex.change(&bucket.exact, h, change)
                    case .suffix(let d):
                        MatchIndex.change(&bucket.suffix, d, change)
                    }
                }
            }
            if !bucket.isEmpty { buckets[scheme] = bucket }
        }
    }

    private static func change(
        _ dict: inout [String: Set<ActivityID>], _ key: String, _ change: (inout Set<ActivityID>) -> Void
    ) {
        var set = dict.removeValue(forKey: key) ?? []
        change(&set)
        if !set.isEmpty { dict[key] = set }
    }

    /// The ids whose scheme and host globs may accept `url` (a superset for path prefixes).
    func candidates(for url: SharedURL) -> Set<ActivityID> {
        candidates(scheme: url.scheme, host: url.host)
    }

    /// The ids whose scheme and host globs may accept a URL with `scheme` and `host`.
    func candidates(scheme: String, host: String?) -> Set<ActivityID> {
        guard let bucket = buckets[scheme] else { return [] }
        var result = bucket.anyHost
        guard let host, !host.isEmpty else { return result }
        if let ids = bucket.exact[host] { result.formUnion(ids) }
        if host.contains(":") { return result }  // IPv6 literals have no parent domains
        // Walk the parent domains: for a.b.example.org look up b.example.org, example.org, org.
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            if let ids = bucket.suffix[String(rest)] { result.formUnion(ids) }
        }
        return result
    }
}
