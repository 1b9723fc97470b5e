// MatchIndex: the registry's lookup structure from URL scheme and host to candidate activities.

/// scheme → { any-host ids, exact host → ids, domain of a `*.domain` glob → ids }.
///
/// A lookup costs a few dictionary hits (the host, then each parent domain of the host), not a scan
/// of every rule; path prefixes are then checked on the few candidates by the registry. Updates are
/// incremental, so registering one activity touches only its own keys.
struct MatchIndex: Sendable {
    /// The keys of one scheme. Host keys hold `MatchIndexIDs` (one id inline), not a `Set`
    /// each: most hosts are one activity's. The any-host ids are one set per scheme.
    struct Bucket: Sendable {
        var anyHost: Set<ActivityID> = []
        var exact: [String: MatchIndexIDs] = [:]
        var suffix: [String: MatchIndexIDs] = [:]

        var isEmpty: Bool { anyHost.isEmpty && exact.isEmpty && suffix.isEmpty }
    }

    private(set) var buckets: [String: Bucket] = [:]

    mutating func insert(_ id: ActivityID, _ rule: MatchRule) {
        update(id, rule, inserting: true)
    }

    mutating func remove(_ id: ActivityID, _ rule: MatchRule) {
        update(id, rule, inserting: false)
    }

    private mutating func update(_ id: ActivityID, _ rule: MatchRule, inserting: Bool) {
        for scheme in rule.schemes {
            var bucket = buckets.removeValue(forKey: scheme) ?? Bucket()
            if rule.matchesAnyHost {
                if inserting { bucket.anyHost.insert(id) } else { bucket.anyHost.remove(id) }
            } else {
                for pattern in rule.hosts ?? [] {
                    switch pattern.kind {
                    case .any:
                        break  // covered by matchesAnyHost
                    case .exact(let h):
                        MatchIndex.change(&bucket.exact, h, id, inserting: inserting)
                    case .suffix(let d):
                        MatchIndex.change(&bucket.suffix, d, id, inserting: inserting)
                    }
                }
            }
            if !bucket.isEmpty { buckets[scheme] = bucket }
        }
    }

    private static func change(
        _ dict: inout [String: MatchIndexIDs], _ key: String, _ id: ActivityID, inserting: Bool
    ) {
        // Out of the dictionary while it changes: the set of a `.many` is then not shared, and
        // an insert does not copy it.
        var ids = dict.removeValue(forKey: key)
        if inserting { MatchIndexIDs.insert(id, into: &ids) } else { MatchIndexIDs.remove(id, from: &ids) }
        dict[key] = ids
    }

    /// The ids whose scheme and host globs may accept `url` (a superset for path prefixes).
    func candidates(for url: SharedURL) -> Set<ActivityID> {
        guard let bucket = buckets[url.scheme] else { return [] }
        var result = bucket.anyHost
        guard let host = url.host, !host.isEmpty else { return result }
        bucket.exact[host]?.add(to: &result)
        if host.contains(":") { return result }  // IPv6 literals have no parent domains
        // Walk the parent domains: for a.b.example.org look up b.example.org, example.org, org.
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            bucket.suffix[String(rest)]?.add(to: &result)
        }
        return result
    }
}
