// HostPattern: one host glob of a match rule ("*", "*.example.org", "example.org", "[::1]").

/// A host glob, normalized at construction exactly like URL hosts (lower case, no trailing dot, IDNA).
///
/// `*` matches any host (and a URL without one); `*.example.org` matches one or more labels before
/// `example.org` (`a.example.org`, `a.b.example.org`) but neither `example.org` itself nor
/// `evil-example.org`; anything else matches that host exactly.
public struct HostPattern: Hashable, Sendable, CustomStringConvertible {
    /// What the glob accepts.
    public enum Kind: Hashable, Sendable {
        /// Any host.
        case any
        /// Exactly this normalized host.
        case exact(String)
        /// Hosts ending in "." + this normalized domain.
        case suffix(String)
    }

    /// The normalized glob.
    public let kind: Kind

    /// Parses and normalizes a glob.
    /// - Throws: `.invalidArgument` when `*` is used other than as a whole leading label, or the host is invalid.
    public init(_ source: String) throws(ActivityError) {
        if source == "*" {
            kind = .any
            return
        }
        var body = Substring(source)
        let wildcard = body.hasPrefix("*.")
        if wildcard { body = body.dropFirst(2) }
        if body.contains("*") {
            throw .invalidArgument(
                "'\(HostName.printable(source))': '*' is allowed only as the whole first label, as in '*.example.org', or alone"
            )
        }
        if body.hasPrefix("[") && body.hasSuffix("]") && !wildcard {
            guard let v6 = HostName.canonicalIPv6(String(body.dropFirst().dropLast())) else {
                throw .invalidArgument("'\(HostName.printable(source))' is not a valid IPv6 address")
            }
            kind = .exact(v6)
            return
        }
        let normalized: String
        do {
            normalized = try HostName.normalizeRegName(String(body))
        } catch {
            throw .invalidArgument("'\(HostName.printable(source))': \(error.message)")
        }
        kind = wildcard ? .suffix(normalized) : .exact(normalized)
    }

    /// Whether `host` (already normalized, as in `SharedURL.host`) matches.
    public func matches(_ host: String?) -> Bool {
        switch kind {
        case .any:
            return true
        case .exact(let h):
            return host == h
        case .suffix(let d):
            // Byte comparison: both sides are normalized ASCII, and String.hasSuffix compares by grapheme.
            guard let host, host.utf8.count > d.utf8.count + 1 else { return false }
            let dotIndex = host.utf8.index(host.utf8.endIndex, offsetBy: -(d.utf8.count + 1))
            return host.utf8[dotIndex] == UInt8(ascii: ".")
                && host.utf8[host.utf8.index(after: dotIndex)...].elementsEqual(d.utf8)
        }
    }

    /// The normalized glob as text; IPv6 literals in brackets.
    public var description: String {
        switch kind {
        case .any: return "*"
        case .exact(let h): return h.contains(":") ? "[\(h)]" : h
        case .suffix(let d): return "*." + d
        }
    }
}
