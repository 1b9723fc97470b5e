// The default-browser step of the offer pipeline: "Open in Browser" stands for the default browser's own entry.

/// "Open in Browser" carries the default browser's name; offering that browser's own "Open in"
/// entry as well would show the same choice twice, so only the built-in one stays (both remain
/// registered: `ListRegistered`, `Perform` and `Explain` know them).
///
/// The last step of the pipeline, after the per-call filter. Kept as it was in the service; the
/// special id is meant to become a manifest field.
public struct DefaultBrowserAlias: Sendable {
    /// The built-in activity that opens the URL with the system opener, i.e. the default browser.
    public static let openInBrowserID = try! ActivityID("org.activitybroker.open-in-browser")

    /// The desktop activity of the default web browser, when mimeapps.list names an installed one.
    public let defaultBrowser: ActivityID?

    public init(defaultBrowser: ActivityID?) { self.defaultBrowser = defaultBrowser }

    /// `offered` without the default browser's own entry when "Open in Browser" is offered too.
    /// Inlinable: it runs on every `ListActivities` and is specialized for the service's entries.
    @inlinable
    public func apply<Offer>(_ offered: [Offer], id: (Offer) -> ActivityID) -> [Offer] {
        guard let defaultBrowser, offered.contains(where: { id($0) == Self.openInBrowserID }) else {
            return offered
        }
        return offered.filter { id($0) != defaultBrowser }
    }
}
