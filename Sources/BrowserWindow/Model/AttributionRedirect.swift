// Which redirects the window reports to the broker as Private Click Measurement triggers.
import Foundation

/// A redirect the window tells the broker about (`AttributionTrigger`, API.md §11): only one
/// whose target looks like a trigger, `https://<site>/.well-known/private-click-measurement/trigger-attribution/…`.
/// Every other redirect stays in the window, since nothing else about the browsing may reach
/// the broker. The broker checks the exact form (trigger and priority numbers) itself.
public struct AttributionRedirect: Sendable, Equatable {
    public static let triggerPath = "/.well-known/private-click-measurement/trigger-attribution/"

    /// The redirect's target.
    public let url: String
    /// The main frame's URL when the load began (the page the trigger belongs to).
    public let page: String

    /// nil unless `target` is an https URL with a host whose path starts with the trigger path.
    public init?(target: String, page: String) {
        guard let components = URLComponents(string: target), components.scheme?.lowercased() == "https",
            let host = components.host, !host.isEmpty,
            components.percentEncodedPath.hasPrefix(Self.triggerPath)
        else { return nil }
        url = target
        self.page = page
    }
}
