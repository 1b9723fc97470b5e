// AttributionGesture: the Linux stand-in for UIEventAttributionView — what proves a click was a real tap.
import ActivityBrokerInterface
import DBus

/// The gesture proof of API.md §11.
///
/// iOS proves the tap itself (`UIEventAttributionView` lets only a real touch through). Here
/// the app passes the `activation_token` it got from the compositor for the user's input;
/// the window activates with it, and the compositor or window manager makes it the active
/// window only for a token from a recent real input. The window reports that with
/// `ClickActivated(activated)`; the broker keeps the click only when `activated` is true and
/// arrives within the gesture window (`defaultWindow`) of the window being shown. Without a
/// token the click is discarded at once. Each discard is one debug log line.
enum AttributionGesture {
    /// How long after `Open` returned the proof may arrive: the product's rule. Only the
    /// testing aid `--gesture-window` (`BrokerConfiguration.gestureWindow`) sets another.
    static let defaultWindow: Duration = .seconds(2)

    /// Whether `Open`'s options carry a non-empty `activation_token`.
    static func hasToken(_ options: [String: Value]) -> Bool {
        guard let token = options[Browser1.OptionKey.activationToken]?.string else { return false }
        return !token.isEmpty
    }
}
