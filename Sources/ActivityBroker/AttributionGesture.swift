// AttributionGesture: the Linux stand-in for UIEventAttributionView — what proves a click was a real tap.
import ActivityBrokerInterface
import DBus

/// The gesture proof of API.md §11.
///
/// iOS proves the tap itself (`UIEventAttributionView` lets only a real touch through). Here
/// the app passes the `activation_token` it got from the compositor for the user's input;
/// the window activates with it, and the compositor or window manager makes it the active
/// window only for a token from a recent real input. The window reports that with
/// `ClickActivated(activated)` once: true as soon as it is active, false when
/// `Browser1.activationWindow` (2 s) passed since it was shown. The broker keeps the click
/// only when `activated` is true and arrives within the gesture window (`defaultWindow`)
/// after `Open` returned. Without a token the click is discarded at once. Each discard is
/// one debug log line.
enum AttributionGesture {
    /// How long after `Open` returned the proof may arrive. The window applies the 2 s rule
    /// itself; the broker's wait only ends a window that never reports, so it allows the
    /// report its way over the bus on top (`transitAllowance`): with the same 2 s counted from
    /// the later `Open` reply, a window activated near its limit had its true proof discarded
    /// on a loaded machine. Only the testing aid `--gesture-window`
    /// (`BrokerConfiguration.gestureWindow`) sets another.
    static let defaultWindow: Duration = Browser1.activationWindow + transitAllowance

    /// What `defaultWindow` allows on top of the window's own limit for the window's report
    /// to cross the bus and reach the broker's loop.
    static let transitAllowance: Duration = .seconds(1)

    /// Whether `Open`'s options carry a non-empty `activation_token`.
    static func hasToken(_ options: [String: Value]) -> Bool {
        guard let token = options[Browser1.OptionKey.activationToken]?.string else { return false }
        return !token.isEmpty
    }
}
