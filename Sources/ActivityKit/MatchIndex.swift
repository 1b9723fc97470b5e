// MatchIndex: the registry's lookup structure from URL scheme and host to candidate activities.

/// scheme → any-host ids; exact host → ids; domain of a `*.domain` glob → ids.
///
/// A lookup costs a few dictionary hits (the scheme, the host, then each parent domain of the
/// host), not a scan of every rule; the registry then checks each candidate's whole rule
/// (scheme, host, path prefixes), so the index may offer more than matches. Updates are
/// incremental, so registering one activity touches only its own keys.
///
/// Host keys do not depend on the scheme: a host glob is one key whatever the rule's schemes
/// (usually `http` and `https`, which would make every host two keys). A host's candidates
/// whose rules lack the URL's scheme are dropped by that check. They hold `MatchIndexIDs`
/// (one id inline), not a `Set` each: most hosts are one activity's.
struct MatchIndex: Sendable {
    private(set) var anyHost: [String: Set<ActivityID>] = [:]
    private(set) var exact: [String: MatchIndexIDs] = [:]
    private(set) var suffix: [String: MatchIndexIDs] = [:]

    mutating func insert(_ id: ActivityID, _ rule: MatchRule) {
        update(id, rule, inserting: true)
    }

    mutating func remove(_ id: ActivityID, _ rule: MatchRule) {
        update(id, rule, inserting: false)
    }

    private mutating func update(_ id: ActivityID, _ rule: MatchRule, inserting: Bool) {
        if rule.matchesAnyHost {
            for scheme in rule.schemes {
                // Out of the dictionary while it changes, so that the set is not copied.
                var set = anyHost.removeValue(forKey: scheme) ?? []
                if inserting { set.insert(id) } else { set.remove(id) }
                if !set.isEmpty { anyHost[scheme] = set }
            }
            return
        }
        for pattern in rule.hosts ?? [] {
            switch pattern.kind {
            case .any:
                break  // covered by matchesAnyHost
            case .exact(let h):
                MatchIndex.change(&exact, h, id, inserting: inserting)
            case .suffix(let d):
                MatchIndex.change(&suffix, d, id, inserting: inserting)
            }
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

    /// The ids whose scheme or host globs may accept `url` (a superset: the registry checks each
    /// candidate's rule).
    func candidates(for url: SharedURL) -> Set<ActivityID> {
        candidates(scheme: url.scheme, host: url.host)
    }

    /// The ids whose scheme or host globs may accept a URL with `scheme` and `host` (a superset,
    /// as above).
    func candidates(scheme: String, host: String?) -> Set<ActivityID> {
        var result = anyHost[scheme] ?? []
        guard let host, !host.isEmpty else { return result }
        exact[host]?.add(to: &result)
        if host.contains(":") { return result }  // IPv6 literals have no parent domains
        // Walk the parent domains: for a.b.example.org look up b.example.org, example.org, org.
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            suffix[String(rest)]?.add(to: &result)
        }
        return result
    }
}
