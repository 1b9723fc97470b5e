// SiteAddress: the host shown in the read-only address, with its registrable domain to emphasise.

import ActivityKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The host the read-only address shows, split so that the registrable domain can be
/// emphasised (`www.` + **`example.co.uk`**), followed by the port when it is not the
/// scheme's default (`127.0.0.1:8000` and `127.0.0.1:8001` are different sites and must not
/// look alike). Never contains user-info, path or query.
///
/// The registrable domain is ActivityKit's `RegistrableDomain`: by the system's Public Suffix
/// List, so `a.b.example.com` → `example.com`, `www.bbc.co.uk` → `bbc.co.uk` and
/// `alice.github.io` → `alice.github.io` (without the list, an approximation that knows common
/// two-level suffixes such as `co.uk` only). IP literals are shown whole and emphasised
/// whole; IPv6 in brackets. A `file:` URL shows its path with nothing emphasised.
/// Internationalized hosts are shown in the ASCII (punycode) form `URL` gives them, which
/// shows look-alike characters for what they are.
public struct SiteAddress: Hashable, Sendable {
    /// The host (IPv6 bracketed), or the path of a `file:` URL.
    public let host: String
    /// The registrable domain, a suffix of `host`; empty when nothing is emphasised.
    public let registrableDomain: String
    /// The port when it is not the scheme's default (80 for http, 443 for https).
    public let port: Int?

    /// The whole text to show: the host, then `:port` when there is one.
    public var text: String { port.map { "\(host):\($0)" } ?? host }
    /// The part of `host` before the registrable domain (`www.`), shown without emphasis.
    public var prefix: String { String(host.dropLast(registrableDomain.count)) }
    /// `:port`, or empty: shown after the registrable domain.
    public var portSuffix: String { port.map { ":\($0)" } ?? "" }

    /// Default ports, not shown.
    static let defaultPorts = ["http": 80, "https": 443]

    /// The address to show for `url`, or `nil` for a URL with neither host nor file path.
    public init?(url: URL) {
        if url.scheme?.lowercased() == "file" {
            guard !url.path.isEmpty else { return nil }
            self.host = url.path
            registrableDomain = ""
            port = nil
            return
        }
        // `URL.host` never includes user-info; strip brackets and a trailing dot.
        guard var host = url.host, !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        host = host.lowercased()
        let scheme = url.scheme?.lowercased() ?? ""
        port = url.port.flatMap { $0 == Self.defaultPorts[scheme] ? nil : $0 }
        if Self.isIPAddress(host) {
            self.host = host.contains(":") ? "[\(host)]" : host
            registrableDomain = self.host
            return
        }
        self.host = host
        registrableDomain = Self.registrableDomain(of: host)
    }

    /// The registrable domain of a DNS host name (see the type's documentation).
    public static func registrableDomain(of host: String) -> String {
        RegistrableDomain.of(host: host)
    }

    /// Whether two URLs belong to the same site: same registrable domain (IP literals and
    /// files must match whole).
    public static func sameSite(_ a: URL, _ b: URL) -> Bool {
        guard let left = SiteAddress(url: a), let right = SiteAddress(url: b) else { return false }
        guard !left.registrableDomain.isEmpty else { return false }
        return left.registrableDomain == right.registrableDomain
    }

    /// Whether `host` is an IPv4 or IPv6 literal.
    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
