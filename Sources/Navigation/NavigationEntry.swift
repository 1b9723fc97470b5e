// NavigationEntry: one visited page in a session's history, loaded or failed.

import Foundation

/// One visited page: what was asked for, where it ended, and the page or the failure.
public struct NavigationEntry: Hashable, Sendable {
    /// The URL navigated to.
    public var requestedURL: URL
    /// The URL shown: after redirects, or the requested one when the load failed early.
    public var url: URL
    /// The page, when it loaded.
    public var page: LoadedPage?
    /// Why it did not load, when it failed.
    public var error: PageLoadError?

    /// An entry for a page that loaded.
    public init(page: LoadedPage) {
        self.requestedURL = page.requestedURL
        self.url = page.finalURL
        self.page = page
        self.error = nil
    }

    /// An entry for a load of `url` that failed with `error`; an HTTP error status keeps the
    /// URL it came from.
    public init(failedURL url: URL, error: PageLoadError) {
        self.requestedURL = url
        if case .httpStatus(_, let finalURL) = error {
            self.url = finalURL
        } else {
            self.url = url
        }
        self.page = nil
        self.error = error
    }

    /// The page's `<title>`; `nil` when it has none or did not load.
    public var title: String? { page?.metadata.title }

    /// Whether the load was redirected elsewhere.
    public var wasRedirected: Bool { url != requestedURL }

    /// The security indicator for the address bar.
    public var security: SecurityIndicator {
        if let page { return page.security }
        return SecurityIndicator.evaluate(
            chain: wasRedirected ? [requestedURL, url] : [url], succeeded: false)
    }

    /// The host to show in the read-only address (never user-info).
    public var address: SiteAddress? { SiteAddress(url: url) }
}
