// NavigationConfiguration: how a navigation session looks and what its Action sheet offers.

import ActivityBrokerClient
import Foundation

/// The label of the button that ends a session: the client library's type, shared with
/// `BrokerProxy.browse`.
public typealias DismissButtonStyle = ActivityBrokerClient.DismissButtonStyle
/// The accent colour of the controls: the client library's type, shared with `BrokerProxy.browse`.
public typealias TintColor = ActivityBrokerClient.TintColor

/// How a navigation session looks and what its Action sheet offers; fixed when the session
/// is created (`SFSafariViewController.Configuration`).
public struct NavigationConfiguration: Sendable {
    /// Activity ids, or `category:share` / `category:action`, never offered in the sheet.
    public var excludedActivities: [String]
    /// The app's own activities, served in-process and shown in their category's row.
    public var customActivities: [CustomActivity]
    /// The label of the button that ends the session.
    public var dismissButtonStyle: DismissButtonStyle
    /// The accent colour of the controls; `nil` for the default.
    public var tintColor: TintColor?
    /// Whether `readerView()` gives the page's text when it has any.
    public var entersReaderIfAvailable: Bool
    /// The locale for activity names (e.g. `de_DE`); `nil` for the broker's own.
    public var locale: String?
    /// Where links and `open(_:)` go; the default router unless replaced.
    public var router: URLRouter

    /// Creates a configuration; every argument has the default of `SFSafariViewController`.
    public init(
        excludedActivities: [String] = [],
        customActivities: [CustomActivity] = [],
        dismissButtonStyle: DismissButtonStyle = .done,
        tintColor: TintColor? = nil,
        entersReaderIfAvailable: Bool = false,
        locale: String? = nil,
        router: URLRouter = URLRouter()
    ) {
        self.excludedActivities = excludedActivities
        self.customActivities = customActivities
        self.dismissButtonStyle = dismissButtonStyle
        self.tintColor = tintColor
        self.entersReaderIfAvailable = entersReaderIfAvailable
        self.locale = locale
        self.router = router
    }
}

/// Whether an exclusion list (`id` or `category:…` entries) removes an activity.
func isExcluded(id: String, category: String, by exclusions: [String]) -> Bool {
    exclusions.contains { $0 == id || $0 == "category:" + category }
}
