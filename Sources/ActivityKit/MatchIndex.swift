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
///
/// A scheme's any-host ids are a sorted array, not a `Set`: a set's table is at most 3/4 full
/// and a power of two (50 app schemes of 140 ids each kept ~290 kB at 10,000 activities, the
/// array 16 bytes an id). A lookup copies the array into its result; it runs when a site is
/// ranked, not on every `ListActivities` (the broker keeps each site's ranking).
struct MatchIndex: Sendable {
    private(set) var anyHost: [String: [ActivityID]] = [:]
    private(set) var exact: [String: MatchIndexIDs] = [:]
    private(set) var suffix: [String: MatchIndexIDs] = [:]

    /// The index of every `(id, rule)` (each id once): the any-host arrays are appended to and
    /// sorted once, not kept sorted id by id (10,000 any-host `http` activities would move
    /// 50 million ids).
    init(_ entries: some Sequence<(ActivityID, MatchRule)>) {
        var unsorted: [String: [ActivityID]] = [:]
        for (id, rule) in entries {
            guard rule.matchesAnyHost else {
                insert(id, rule)
                continue
            }
            for scheme in rule.schemes { unsorted[scheme, default: []].append(id) }
        }
        for (scheme, ids) in unsorted { anyHost[scheme] = ids.sorted() }
    }

    /// An empty index.
    init() {}

    mutating func insert(_ id: ActivityID, _ rule: MatchRule) {
        update(id, rule, inserting: true)
    }

    mutating func remove(_ id: ActivityID, _ rule: MatchRule) {
        update(id, rule, inserting: false)
    }

    private mutating func update(_ id: ActivityID, _ rule: MatchRule, inserting: Bool) {
        if rule.matchesAnyHost {
            for scheme in rule.schemes {
                // Out of the dictionary while it changes, so that the array is not copied.
                var ids = anyHost.removeValue(forKey: scheme) ?? []
                let (found, at) = MatchIndex.position(of: id, in: ids)
                if inserting, !found { ids.insert(id, at: at) }
                if !inserting, found { ids.remove(at: at) }
                if !ids.isEmpty { anyHost[scheme] = ids }
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

    /// Where `id` is in the sorted `ids`, or where it would go.
    private static func position(of id: ActivityID, in ids: [ActivityID]) -> (found: Bool, at: Int) {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return (low < ids.count && ids[low] == id, low)
    }

    /// The ids whose scheme or host globs may accept `url` (a superset: the registry checks each
    /// candidate's rule).
    func candidates(for url: SharedURL) -> Set<ActivityID> {
        candidates(scheme: url.scheme, host: url.host)
    }

    /// The ids whose scheme or host globs may accept a URL with `scheme` and `host` (a superset,
    /// as above).
    func candidates(scheme: String, host: String?) -> Set<ActivityID> {
        var result = Set(anyHost[scheme] ?? [])
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
