// URLRouter: decides where a URL opens, after SwiftUI's OpenURLAction.

import Foundation

/// What to do with a URL: open it in the app, hand it to the system, or drop it.
///
/// Shaped after SwiftUI's `OpenURLAction.Result`: `.handled`, `.systemAction`,
/// `.systemAction(url)` and `.discarded(reason)`.
public struct RouteOutcome: Hashable, Sendable, CustomStringConvertible {
    /// The decision, for `switch`.
    public enum Action: Hashable, Sendable {
        /// Open in the app, as a navigation session.
        case handled
        /// Hand to the system opener: the original URL when `rewritten` is `nil`.
        case systemAction(rewritten: URL?)
        /// Do nothing; `reason` says why in one sentence.
        case discarded(reason: String)
    }

    /// The decision.
    public let action: Action

    /// Creates an outcome from a decision.
    public init(_ action: Action) {
        self.action = action
    }

    /// Open in the app.
    public static let handled = RouteOutcome(.handled)
    /// Hand the URL to the system opener.
    public static let systemAction = RouteOutcome(.systemAction(rewritten: nil))

    /// Hand `url` (a rewritten URL) to the system opener instead of the original.
    public static func systemAction(_ url: URL) -> RouteOutcome {
        RouteOutcome(.systemAction(rewritten: url))
    }

    /// Drop the URL, saying why.
    public static func discarded(_ reason: String) -> RouteOutcome {
        RouteOutcome(.discarded(reason: reason))
    }

    /// `handled`, `systemAction` or `discarded`: a stable name for output such as
    /// `share open --json`.
    public var kind: String {
        switch action {
        case .handled: "handled"
        case .systemAction: "systemAction"
        case .discarded: "discarded"
        }
    }

    /// The URL to hand to the system: the rewritten one, else `original`; `nil` unless a
    /// system action.
    public func systemURL(for original: URL) -> URL? {
        if case .systemAction(let rewritten) = action { return rewritten ?? original }
        return nil
    }

    /// The reason, when discarded.
    public var discardReason: String? {
        if case .discarded(let reason) = action { return reason }
        return nil
    }

    public var description: String {
        switch action {
        case .handled: "handled"
        case .systemAction(nil): "systemAction"
        case .systemAction(let url?): "systemAction(\(url.absoluteString))"
        case .discarded(let reason): "discarded(\(reason))"
        }
    }
}

/// A routing policy: consulted with the URL and the page it came from (`nil` when it came
/// from outside, e.g. the command line); `nil` passes the decision on.
public typealias URLRoutingPolicy = @Sendable (_ url: URL, _ source: URL?) -> RouteOutcome?

/// Decides where URLs open, like SwiftUI's `OpenURLAction`: custom policies first (the last
/// added is asked first), then the default policy.
///
/// The default policy:
/// - `http`/`https` with a host: `.handled` (in-app); without a host: discarded.
/// - `javascript:`, `data:`, `vbscript:`, `about:`, `blob:`: discarded — they run code or
///   show content under no origin the user can check.
/// - `file:`: `.handled` when asked from outside or from a local page; discarded when a
///   remote page links to it (a web page must not open local files, as in browsers).
/// - any other valid scheme (`mailto:`, `tel:`, custom schemes): `.systemAction`.
/// - a string that is not an absolute URL with a valid scheme: discarded.
public struct URLRouter: Sendable {
    /// Schemes never followed: they run code or carry content under no origin.
    public static let unsafeSchemes: Set<String> = ["javascript", "data", "vbscript"]
    /// Schemes discarded by the default policy besides the unsafe ones.
    static let discardedSchemes: Set<String> = ["about", "blob"]

    private let policies: [URLRoutingPolicy]

    /// A router with the default policy only, or with `policy` consulted first.
    public init(policy: URLRoutingPolicy? = nil) {
        self.policies = policy.map { [$0] } ?? []
    }

    private init(policies: [URLRoutingPolicy]) {
        self.policies = policies
    }

    /// A router that asks `policy` first, then this router's policies.
    public func consulting(_ policy: @escaping URLRoutingPolicy) -> URLRouter {
        URLRouter(policies: [policy] + policies)
    }

    /// Routes the text of a URL; text that does not parse as an absolute URL is discarded.
    public func route(_ string: String, from source: URL? = nil) -> RouteOutcome {
        let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: trimmed), url.scheme != nil else {
            return .discarded("'\(trimmed)' is not an absolute URL")
        }
        return route(url, from: source)
    }

    /// Routes `url`, opened from the page `source` (`nil` when it came from outside).
    public func route(_ url: URL, from source: URL? = nil) -> RouteOutcome {
        for policy in policies {
            if let outcome = policy(url, source) { return outcome }
        }
        return Self.defaultOutcome(url, from: source)
    }

    /// The default policy (see the type's documentation).
    public static func defaultOutcome(_ url: URL, from source: URL?) -> RouteOutcome {
        guard let rawScheme = url.scheme, isValidScheme(rawScheme) else {
            return .discarded("'\(url.absoluteString)' has no valid scheme")
        }
        let scheme = rawScheme.lowercased()
        if unsafeSchemes.contains(scheme) || discardedSchemes.contains(scheme) {
            return .discarded(
                "\(scheme): URLs are not opened: they could run code or show content of unknown origin")
        }
        switch scheme {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else {
                return .discarded("'\(url.absoluteString)' has no host")
            }
            return .handled
        case "file":
            if let sourceScheme = source?.scheme?.lowercased(), sourceScheme != "file" {
                return .discarded("a web page may not open local files")
            }
            return .handled
        default:
            return .systemAction
        }
    }

    /// `url` with its scheme and host lowercased, so that `HTTP://Example.COM/x` loads as
    /// `http://example.com/x`: both are case-insensitive (RFC 3986 §6.2.2.1) but the
    /// transport and URL comparisons are not. Other parts are left as they are.
    public static func normalized(_ url: URL) -> URL {
        guard let scheme = url.scheme, scheme != scheme.lowercased() || url.host != url.host?.lowercased(),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.scheme = scheme.lowercased()
        if let host = components.percentEncodedHost { components.percentEncodedHost = host.lowercased() }
        return components.url ?? url
    }

    /// RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    static func isValidScheme(_ scheme: String) -> Bool {
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else {
            return false
        }
        return scheme.unicodeScalars.allSatisfy {
            $0.isASCII
                && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                    || "+-.".unicodeScalars.contains($0))
        }
    }
}
