// OpenSpec: open a URL built from a template with the system's URL opener.

/// `perform.open` (API.md §4): placeholders are percent-encoded as a query component, except that a
/// template consisting of exactly `{url}` passes the shared URL through unchanged ("open the link
/// itself"). Either way the result is checked after expansion: only `http`, `https` and `mailto` URLs leave.
public struct OpenSpec: Hashable, Sendable {
    /// The schemes a built URL may have.
    public static let allowedSchemes: Set<String> = ["http", "https", "mailto"]

    /// The URL template.
    public let template: Template

    /// Builds a spec; a template that starts with literal text must start with an allowed scheme.
    /// - Throws: `.invalidArgument` when the template can never produce an allowed URL.
    public init(template: Template) throws(ActivityError) {
        if !template.isURLOnly {
            guard case .literal(let head)? = template.segments.first,
                let colon = head.firstIndex(of: ":"),
                OpenSpec.allowedSchemes.contains(head[..<colon].lowercased())
            else {
                throw .invalidArgument(
                    "open: '\(HostName.printable(String(template.source.prefix(80))))' must start with 'https:', 'http:' or 'mailto:' (or be exactly '{url}')"
                )
            }
        }
        self.template = template
    }

    /// The URL to open for `items`.
    /// - Throws: `.invalidArgument` when the expansion is not a valid http, https or mailto URL
    ///   (e.g. `{url}` with a `javascript:` URL).
    public func url(for items: Items) throws(ActivityError) -> String {
        let result = template.isURLOnly ? items.url.string : template.expandQueryEncoded(items)
        let parsed: SharedURL
        do {
            parsed = try SharedURL(result)
        } catch {
            throw .invalidArgument("the URL to open is not valid: \(error.message)")
        }
        guard OpenSpec.allowedSchemes.contains(parsed.scheme) else {
            throw .invalidArgument(
                "the URL to open has scheme '\(parsed.scheme)'; only http, https and mailto URLs are opened")
        }
        return result
    }
}
