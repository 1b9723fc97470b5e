// MatchRule: the "match" of a manifest or registration: schemes, host globs and path prefixes.

/// Which URLs an activity applies to; every present part must hold (API.md §4).
///
/// - `schemes` compare case-insensitively (default `http`, `https`).
/// - `hosts` are `HostPattern` globs (default: any host, and URLs without a host).
/// - `pathPrefixes` compare against the normalized path (default: any path). A prefix matches whole
///   segments: `/watch` matches `/watch` and `/watch/x` but not `/watchlist`; a prefix ending in `/`
///   matches everything below it.
public struct MatchRule: Hashable, Sendable {
    /// The schemes when none are given.
    public static let defaultSchemes = ["http", "https"]
    /// The most entries one list may hold, so a registration cannot make the index huge.
    public static let maxEntries = 1024
    /// The longest scheme, in bytes. Registered schemes are a few letters; a rule is kept for
    /// its activity's life and its schemes are joined into `Explain`'s sentences.
    public static let maxSchemeLength = 64
    /// The longest path prefix, in bytes (before normalization): `ListActivities` compares
    /// every prefix with the URL's path, and `Explain` and `NotApplicable` join them all.
    public static let maxPathPrefixLength = 4096

    /// Lower-cased schemes in the order given, without duplicates.
    public let schemes: [String]
    /// The host globs; `nil` means any host.
    public let hosts: [HostPattern]?
    /// The normalized path prefixes; `nil` means any path.
    public let pathPrefixes: [String]?

    /// Validates and normalizes the parts.
    /// - Throws: `.invalidArgument` whose message starts with the manifest key and index,
    ///   e.g. "hosts[2]: 'a.*.org': '*' is allowed only as the whole first label …".
    public init(schemes: [String]? = nil, hosts: [String]? = nil, pathPrefixes: [String]? = nil)
        throws(ActivityError)
    {
        for (key, list) in [("schemes", schemes), ("hosts", hosts), ("path_prefixes", pathPrefixes)] {
            if let list, list.count > MatchRule.maxEntries {
                throw .invalidArgument(
                    "\(key): \(list.count) entries; at most \(MatchRule.maxEntries) are allowed")
            }
        }
        let schemes = try Self.normalized(
            schemes ?? MatchRule.defaultSchemes, key: "schemes", leftOut: "http and https"
        ) { s throws(ActivityError) in
            try Self.checkLength(s, atMost: MatchRule.maxSchemeLength)
            let b = Array(s.utf8)
            guard let first = b.first, SharedURL.isAlpha(first),
                b.allSatisfy({ HostName.isAlnum($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
            else {
                throw .invalidArgument(
                    "'\(HostName.printable(String(s.prefix(64))))' is not a URL scheme"
                        + " (a letter, then letters, digits, '+', '-' or '.')")
            }
            return s.lowercased()
        }
        // The default list itself rather than an equal copy: most rules with hosts have it, and
        // each copy was an allocation of its own (80 bytes per activity with host globs).
        self.schemes = schemes == MatchRule.defaultSchemes ? MatchRule.defaultSchemes : schemes
        self.hosts = try hosts.map { hosts throws(ActivityError) in
            try Self.normalized(hosts, key: "hosts", leftOut: "any host") { h throws(ActivityError) in
                try HostPattern(h)
            }
        }
        self.pathPrefixes = try pathPrefixes.map { prefixes throws(ActivityError) in
            try Self.normalized(prefixes, key: "path_prefixes", leftOut: "any path") {
                p throws(ActivityError) in
                try Self.checkLength(p, atMost: MatchRule.maxPathPrefixLength)
                guard p.hasPrefix("/") else {
                    throw .invalidArgument(
                        "'\(HostName.printable(String(p.prefix(64))))' must start with '/'")
                }
                if p.contains("?") || p.contains("#") {
                    throw .invalidArgument(
                        "'\(HostName.printable(String(p.prefix(64))))' must not contain '?' or '#'")
                }
                do throws(ActivityError) {
                    try SharedURL.checkCharacters(p)
                    try SharedURL.checkEscapes(Array(p.utf8))
                } catch {
                    throw .invalidArgument(
                        error.message.replacing("URL", with: "path prefix"))
                }
                return SharedURL.normalizePath(p)
            }
        }
    }

    /// Throws `.invalidArgument` when `entry` is longer than `limit` UTF-8 bytes (the caller
    /// puts the key and index before the message).
    private static func checkLength(_ entry: String, atMost limit: Int) throws(ActivityError) {
        let length = entry.utf8.count
        if length > limit {
            throw .invalidArgument("\(length) bytes long; at most \(limit) are allowed")
        }
    }

    /// One list of the rule as given: not empty (`leftOut` says what leaving the key out
    /// means), each entry normalized by `normalize`, whose errors get `key[index]: ` before
    /// them, and duplicates dropped, keeping the first.
    private static func normalized<Entry: Equatable>(
        _ list: [String], key: String, leftOut: String, _ normalize: (String) throws(ActivityError) -> Entry
    ) throws(ActivityError) -> [Entry] {
        if list.isEmpty {
            throw .invalidArgument("\(key): must not be empty (leave the key out for \(leftOut))")
        }
        var entries: [Entry] = []
        for (i, text) in list.enumerated() {
            do {
                let entry = try normalize(text)
                if !entries.contains(entry) { entries.append(entry) }
            } catch {
                throw error.prefixed("\(key)[\(i)]: ")
            }
        }
        return entries
    }

    /// The rule that accepts every http and https URL.
    public static let httpAny: MatchRule = {
        do { return try MatchRule() } catch { preconditionFailure("default rule is valid: \(error)") }
    }()

    /// Whether any host glob is `*` (or no hosts are given).
    public var matchesAnyHost: Bool {
        guard let hosts else { return true }
        return hosts.contains { $0.kind == .any }
    }

    /// Whether the rule accepts `url` (the fast path used by the registry).
    public func matches(_ url: SharedURL) -> Bool {
        schemes.contains(url.scheme) && hostMatches(url.host) && pathMatches(url.path)
    }

    /// Whether the rule's schemes and host globs accept a URL with `scheme` and `host` (its
    /// path prefixes aside: `pathMatches`).
    public func matches(scheme: String, host: String?) -> Bool {
        schemes.contains(scheme) && hostMatches(host)
    }

    func hostMatches(_ host: String?) -> Bool {
        guard let hosts else { return true }
        return hosts.contains { $0.matches(host) }
    }

    /// Whether the rule's path prefixes (if any) accept the normalized `path`.
    public func pathMatches(_ path: String) -> Bool {
        guard let pathPrefixes else { return true }
        return pathPrefixes.contains { MatchRule.path(path, hasSegmentPrefix: $0) }
    }

    static func path(_ path: String, hasSegmentPrefix prefix: String) -> Bool {
        // Byte comparison: prefixes are compared as normalized text, not by grapheme.
        let p = path.utf8, q = prefix.utf8
        guard p.count >= q.count, p.starts(with: q) else { return false }
        if p.count == q.count || q.last == UInt8(ascii: "/") { return true }
        return p[p.index(p.startIndex, offsetBy: q.count)] == UInt8(ascii: "/")
    }

    /// Evaluates the rule and explains the outcome in one sentence naming the deciding rule.
    public func evaluate(_ url: SharedURL) -> MatchVerdict {
        let schemeList = schemes.joined(separator: ", ")
        guard schemes.contains(url.scheme) else {
            return .rejects("scheme '\(MatchRule.shown(url.scheme))' is not one of \(schemeList)")
        }
        var parts = ["scheme '\(url.scheme)' is one of \(schemeList)"]
        if let hosts, !matchesAnyHost {
            let list = hosts.map(\.description).joined(separator: ", ")
            guard let host = url.host, !host.isEmpty else {
                return .rejects("the URL has no host, and the rule needs one of \(list)")
            }
            guard let hit = hosts.first(where: { $0.matches(host) }) else {
                return .rejects("host '\(MatchRule.shown(host))' matches none of \(list)")
            }
            parts.append("host '\(MatchRule.shown(host))' matches \(hit)")
        } else {
            parts.append("any host")
        }
        if let pathPrefixes {
            let list = pathPrefixes.joined(separator: ", ")
            guard let hit = pathPrefixes.first(where: { MatchRule.path(url.path, hasSegmentPrefix: $0) })
            else {
                return .rejects("path '\(MatchRule.shown(url.path))' starts with none of \(list)")
            }
            parts.append("path '\(MatchRule.shown(url.path))' starts with \(hit)")
        } else {
            parts.append("any path")
        }
        return .matches("matches: " + parts.joined(separator: "; "))
    }

    /// Keeps sentences short when a value is huge.
    static func shown(_ s: String) -> String {
        s.count > 120 ? String(s.prefix(120)) + "…" : s
    }
}
