// SharedItems: what the navigation session hands to an activity (API.md §2 items).

import Foundation

/// The items an activity acts on: a URL with an optional title and free text (API.md §2).
///
/// A plain value with no validation of its own: the broker checks the limits of API.md §2
/// (URL ≤ 32 KiB, title ≤ 4 KiB, text ≤ 64 KiB) when the items reach it.
public struct SharedItems: Hashable, Sendable {
    /// The absolute URL being shared.
    public var url: URL
    /// The page title, when known.
    public var title: String?
    /// Free text to go with the URL.
    public var text: String?

    /// Creates items for `url`, with an optional title and text.
    public init(url: URL, title: String? = nil, text: String? = nil) {
        self.url = url
        self.title = title
        self.text = text
    }
}
