// Items: what is shared (url, title, text), validated against the limits of API.md §2.

/// The items of a share request: a parsed URL and an optional title and text.
public struct Items: Hashable, Sendable {
    /// The largest title accepted, in UTF-8 bytes.
    public static let maxTitleLength = 4 * 1024
    /// The largest text accepted, in UTF-8 bytes.
    public static let maxTextLength = 64 * 1024

    /// The URL being shared.
    public let url: SharedURL
    /// The page title, if any.
    public let title: String?
    /// Free text, if any.
    public let text: String?

    /// Validates the items.
    /// - Throws: `.invalidArgument` naming the item (`url: …`, `title: …`, `text: …`).
    public init(url: String, title: String? = nil, text: String? = nil) throws(ActivityError) {
        do {
            self.url = try SharedURL(url)
        } catch {
            throw error.prefixed("url: ")
        }
        if let title, title.utf8.count > Items.maxTitleLength {
            throw .invalidArgument(
                "title: \(title.utf8.count) bytes long; at most \(Items.maxTitleLength) (4 KiB) are allowed")
        }
        if let text, text.utf8.count > Items.maxTextLength {
            throw .invalidArgument(
                "text: \(text.utf8.count) bytes long; at most \(Items.maxTextLength) (64 KiB) are allowed")
        }
        // D-Bus strings cannot hold NUL, and a C argument would be cut at one: reject it from any source.
        if title?.utf8.contains(0) == true { throw .invalidArgument("title: contains a NUL character") }
        if text?.utf8.contains(0) == true { throw .invalidArgument("text: contains a NUL character") }
        self.title = title
        self.text = text
    }

    /// Items for an already parsed URL.
    public init(url: SharedURL, title: String? = nil, text: String? = nil) throws(ActivityError) {
        try self.init(url: url.string, title: title, text: text)
    }
}
