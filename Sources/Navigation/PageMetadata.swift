// PageMetadata: what the navigation session reads from a page (title, canonical, og tags, links, reader text).

import Foundation

/// A link on a page: its absolute URL and its text.
public struct PageLink: Hashable, Sendable {
    /// The `href`, resolved against the page's base URL.
    public var url: URL
    /// The link's text with whitespace collapsed; falls back to an image's `alt`, then `title`/`aria-label`.
    public var text: String

    /// Creates a link.
    public init(url: URL, text: String) {
        self.url = url
        self.text = text
    }
}

/// The readable text of a page: its title and its paragraphs, for `NavigationSession.readerView()`.
public struct ReaderContent: Hashable, Sendable {
    /// The title shown above the text.
    public var title: String?
    /// The paragraphs, whitespace collapsed, in page order.
    public var paragraphs: [String]

    /// Creates reader content.
    public init(title: String?, paragraphs: [String]) {
        self.title = title
        self.paragraphs = paragraphs
    }

    /// Plain text: the title, then the paragraphs, separated by blank lines.
    public var plainText: String {
        ([title].compactMap { $0 } + paragraphs).joined(separator: "\n\n")
    }
}

/// What a page says about itself.
public struct PageMetadata: Hashable, Sendable {
    /// The first `<title>`, whitespace collapsed; `nil` when absent or empty.
    public var title: String?
    /// `<link rel=canonical href>`, resolved; only http(s) URLs are kept.
    public var canonicalURL: URL?
    /// `<meta property=og:title content>`.
    public var openGraphTitle: String?
    /// `<meta property=og:description content>`.
    public var openGraphDescription: String?
    /// `<meta property=og:site_name content>`.
    public var openGraphSiteName: String?
    /// The page's links in order, without duplicates and without `javascript:`, `data:`,
    /// `vbscript:` ones.
    public var links: [PageLink]
    /// The page's main text when it has an `<article>`, a `<main>` or a cluster of paragraphs.
    public var reader: ReaderContent?

    /// Creates metadata.
    public init(
        title: String? = nil, canonicalURL: URL? = nil, openGraphTitle: String? = nil,
        openGraphDescription: String? = nil, openGraphSiteName: String? = nil, links: [PageLink] = [],
        reader: ReaderContent? = nil
    ) {
        self.title = title
        self.canonicalURL = canonicalURL
        self.openGraphTitle = openGraphTitle
        self.openGraphDescription = openGraphDescription
        self.openGraphSiteName = openGraphSiteName
        self.links = links
        self.reader = reader
    }
}
