// The options of BrokerProxy.browse (Broker1.Browse's a{sv} options, API.md §10), after SFSafariViewController.Configuration.
import ActivityBrokerInterface
import DBus

/// How the broker's browser window looks and what its Action sheet offers; fixed when the
/// session starts. Every default is `SFSafariViewController`'s.
public struct BrowseConfiguration: Hashable, Sendable {
    /// The label of the button that closes the window.
    public var dismissButtonStyle: DismissButtonStyle
    /// The colour of the controls; nil for the desktop's.
    public var controlTint: TintColor?
    /// The colour of the header bar; nil for the desktop's.
    public var barTint: TintColor?
    /// Whether the window shows the article view at once when the page has one.
    public var entersReaderIfAvailable: Bool
    /// Whether the bars may collapse while scrolling.
    public var barCollapsingEnabled: Bool
    /// Activity ids, or `category:share` / `category:action`, left out of the Action sheet.
    public var excludedActivities: [String]
    /// An XDG activation token (or X11 startup id) that lets the window take focus.
    public var activationToken: String?
    /// The app's window the browser window belongs to: `""`, `x11:<hex XID>` or
    /// `wayland:<xdg-foreign handle>`.
    public var parentWindow: String

    public init(
        dismissButtonStyle: DismissButtonStyle = .done, controlTint: TintColor? = nil,
        barTint: TintColor? = nil,
        entersReaderIfAvailable: Bool = false, barCollapsingEnabled: Bool = true,
        excludedActivities: [String] = [],
        activationToken: String? = nil, parentWindow: String = ""
    ) {
        self.dismissButtonStyle = dismissButtonStyle
        self.controlTint = controlTint
        self.barTint = barTint
        self.entersReaderIfAvailable = entersReaderIfAvailable
        self.barCollapsingEnabled = barCollapsingEnabled
        self.excludedActivities = excludedActivities
        self.activationToken = activationToken
        self.parentWindow = parentWindow
    }

    /// The `a{sv}` the broker receives: defaults left out.
    var vardict: [String: Value] {
        typealias Key = Browser1.OptionKey
        var options: [String: Value] = [:]
        if dismissButtonStyle != .done {
            options[Key.dismissButtonStyle] = .string(dismissButtonStyle.rawValue)
        }
        if let controlTint { options[Key.controlTint] = .string(controlTint.hex) }
        if let barTint { options[Key.barTint] = .string(barTint.hex) }
        if entersReaderIfAvailable { options[Key.entersReaderIfAvailable] = .boolean(true) }
        if !barCollapsingEnabled { options[Key.barCollapsingEnabled] = .boolean(false) }
        if !excludedActivities.isEmpty { options[Key.exclude] = .stringArray(excludedActivities) }
        if let activationToken { options[Key.activationToken] = .string(activationToken) }
        return options
    }
}
