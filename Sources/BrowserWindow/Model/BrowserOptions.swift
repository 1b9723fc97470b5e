// The options of Browser1.Open, checked against their allow-list and decoded.
import ActivityBrokerInterface
import DBus
import Navigation

/// How one window looks and what its Action sheet leaves out (`Broker1.Browse`'s options,
/// passed on by the broker). Defaults are `SFSafariViewController`'s.
public struct BrowserOptions: Sendable, Equatable {
    public var dismissButtonStyle: DismissButtonStyle = .done
    public var controlTint: TintColor?
    public var barTint: TintColor?
    public var entersReaderIfAvailable = false
    /// Scrolling the page down shrinks the header bar to the address (see `BarCollapse`).
    public var barCollapsingEnabled = true
    public var exclude: [String] = []
    public var activationToken: String?

    /// Whether `ClickActivated` is owed (§11): for every `Open` with a token to activate by.
    /// The broker strips `event_attribution` before `Open`, so the token alone decides; the
    /// broker ignores the event when it kept no click to prove.
    public var reportsClickActivation: Bool { activationToken != nil }

    public init() {}

    /// Decodes `options`: every key must be in `Browser1.openOptions` with its type, a style one
    /// of `done`/`close`/`cancel` and a tint `#rrggbb`. Throws `InvalidArgs` naming the key.
    public init(_ options: [String: Value]) throws(DBusError) {
        for (key, value) in options {
            guard let expected = Browser1.openOptions[key] else {
                let known = Browser1.openOptions.keys.sorted().joined(separator: ", ")
                throw .invalidArgs("unknown option '\(key)'; known: \(known)")
            }
            guard value.signature == expected else {
                throw .invalidArgs("option '\(key)' must be '\(expected)', got '\(value.signature)'")
            }
        }
        if let style = options[Browser1.OptionKey.dismissButtonStyle]?.string {
            guard let parsed = DismissButtonStyle(rawValue: style) else {
                throw .invalidArgs(
                    "option 'dismiss_button_style' is '\(style)'; expected done, close or cancel")
            }
            dismissButtonStyle = parsed
        }
        controlTint = try Self.tint(options, Browser1.OptionKey.controlTint)
        barTint = try Self.tint(options, Browser1.OptionKey.barTint)
        entersReaderIfAvailable = options[Browser1.OptionKey.entersReaderIfAvailable]?.bool ?? false
        barCollapsingEnabled = options[Browser1.OptionKey.barCollapsingEnabled]?.bool ?? true
        exclude = options[Browser1.OptionKey.exclude]?.stringArray ?? []
        activationToken = options[Browser1.OptionKey.activationToken]?.string.flatMap {
            $0.isEmpty ? nil : $0
        }
    }

    /// Only `#rrggbb` on the wire (API.md §10), though `TintColor` reads more forms.
    private static func tint(_ options: [String: Value], _ key: String) throws(DBusError) -> TintColor? {
        guard let text = options[key]?.string else { return nil }
        guard text.count == 7, text.hasPrefix("#"), let color = TintColor(text) else {
            throw .invalidArgs("option '\(key)' is '\(text)'; expected #rrggbb")
        }
        return color
    }
}
