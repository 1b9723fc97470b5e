// What the sheet's header shows: the page title, its address and the app that asked.

/// The header of a sheet: what is being shared and by whom.
public struct SheetHeader: Hashable, Sendable {
    /// The page title as given (may be empty).
    public let title: String
    public let url: DisplayURL
    /// The calling app's display name, when its desktop entry is known.
    public let appName: String?

    public init(title: String, url: String, appName: String? = nil) {
        self.title = title.trimmingWhitespace
        self.url = DisplayURL(url)
        self.appName = appName.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The first line of the header: the title, or the host when the page has none (a bare
    /// URL says nothing a person recognizes), or the whole URL when there is no host.
    public var headline: String {
        if !title.isEmpty { return title }
        return url.host.isEmpty ? url.text : url.host
    }
}

extension String {
    /// Without leading and trailing spaces and newlines (titles often carry them from HTML).
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
