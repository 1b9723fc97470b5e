// LoadedPage: the result of loading one page: where it ended up, how it got there, what it says.

import Foundation

/// One HTTP redirect a load followed.
public struct Redirect: Hashable, Sendable {
    /// The URL that answered with a redirect.
    public var from: URL
    /// Where it pointed (resolved).
    public var to: URL
    /// The status: 301, 302, 303, 307 or 308.
    public var statusCode: Int

    /// Creates a redirect record.
    public init(from: URL, to: URL, statusCode: Int) {
        self.from = from
        self.to = to
        self.statusCode = statusCode
    }
}

/// A page that loaded: its final URL, the redirects on the way, and its metadata.
public struct LoadedPage: Hashable, Sendable {
    /// The URL asked for.
    public var requestedURL: URL
    /// The URL the content came from, after redirects.
    public var finalURL: URL
    /// The redirects followed, in order.
    public var redirects: [Redirect]
    /// The HTTP status of the final response; `nil` for a file.
    public var statusCode: Int?
    /// The `Content-Type` of the final response; `nil` for a file or when absent.
    public var contentType: String?
    /// How many bytes of body were read.
    public var byteCount: Int
    /// What the page says about itself (empty for content that is not HTML).
    public var metadata: PageMetadata

    /// Creates a loaded page.
    public init(
        requestedURL: URL, finalURL: URL, redirects: [Redirect] = [], statusCode: Int? = nil,
        contentType: String? = nil, byteCount: Int = 0, metadata: PageMetadata = PageMetadata()
    ) {
        self.requestedURL = requestedURL
        self.finalURL = finalURL
        self.redirects = redirects
        self.statusCode = statusCode
        self.contentType = contentType
        self.byteCount = byteCount
        self.metadata = metadata
    }

    /// The requested URL, then each redirect's target: what the security indicator judges.
    public var chain: [URL] { [requestedURL] + redirects.map(\.to) }

    /// The indicator for this successful load.
    public var security: SecurityIndicator { SecurityIndicator.evaluate(chain: chain, succeeded: true) }
}
