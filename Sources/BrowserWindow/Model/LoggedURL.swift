// How a URL appears in the browser service's log: its scheme and site, never the page.
import Foundation
import Navigation

/// The part of a URL the service may log: the scheme and the site (registrable domain and
/// port), e.g. `https://example.org` or `mailto:`. Paths, queries, fragments, user names and
/// the rest of a `mailto:` are what the user browsed and stay out of the log, as the broker
/// keeps browsed URLs out of its own (docs/ui-notes.md).
public struct LoggedURL: CustomStringConvertible, Sendable, Equatable {
    public let description: String

    public init(_ url: URL?) {
        guard let url, let scheme = url.scheme?.lowercased(), !scheme.isEmpty else {
            description = "(no URL)"
            return
        }
        if let address = SiteAddress(url: url), url.host?.isEmpty == false {
            let site =
                address.registrableDomain.isEmpty
                ? address.text : address.registrableDomain + address.portSuffix
            description = "\(scheme)://\(site)"
        } else {
            description = "\(scheme):"
        }
    }

    /// The URL as text (WebKit hands out strings); unparsable text logs as `(no URL)`.
    public init(_ text: String) {
        self.init(URL(string: text))
    }
}
