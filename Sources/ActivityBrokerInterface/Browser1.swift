// The org.activitybroker.impl.Browser1 interface of the browser window's UI service (API.md §10): names, methods, events, options.
import DBus

/// The browser service's bus name, object, interface, methods, signal and option keys, spelled
/// once for the service (`activity-browser`), the broker that calls it and the tests.
///
/// Only the owner of `Broker1.busName` may call it: anyone else gets
/// `BrokerErrorName.accessDenied`. The service exports nothing under a `handle`; its events go
/// to the calling broker alone (unicast `Event` signals from `objectPath`). Its Action button
/// calls `Broker1.share` with `OptionKey.session`.
public enum Browser1: ServiceInterface {
    /// The well-known name `activity-browser` owns (started by D-Bus activation).
    public static let busName: BusName = "org.activitybroker.Browser"
    /// The one object the service exports.
    public static let objectPath: ObjectPath = "/org/activitybroker/Browser"
    public static let interface: InterfaceName = "org.activitybroker.impl.Browser1"

    /// `Open(o handle, s app_id, s parent_window, s url, a{sv} options) → ()`: opens one window
    /// for `handle` on `url` (http or https) and returns once it is shown. A handle that already
    /// has a window is `InvalidArgs`; so is an option outside `openOptions` or of another type.
    public static let open = method("Open", in: "o handle, s app_id, s parent_window, s url, a{sv} options")
    /// `Close(o handle) → ()`: closes the window (sending `Finished` if not yet sent). A handle
    /// with no window is a no-op.
    public static let close = method("Close", in: "o handle")

    /// API.md §11's gesture proof: a window opened with an activation token must become the
    /// active window within this long after it is shown, or its `clickActivated` is false.
    /// The window measures it (it alone sees the activation); the broker only bounds its wait.
    public static let activationWindow: Duration = .seconds(2)

    /// `Event(o handle, s name, a{sv} details)`: unicast to the broker that opened `handle`.
    public static let event = signal("Event", "o handle, s name, a{sv} details")

    /// The `name`s of `Event`, with their `details` keys. Those the broker passes on to the
    /// app are named as the `Session1` signal they become.
    public enum EventName {
        /// After the first load: `success` (b).
        public static let initialLoadCompleted = Session1.initialLoadCompleted.name.rawValue
        /// The first load ended at another URL than the one opened: `url` (s), the final URL.
        public static let initialLoadRedirected = Session1.initialLoadRedirected.name.rawValue
        /// Open in Browser was pressed; sent before the system opener runs.
        public static let willOpenInBrowser = Session1.willOpenInBrowser.name.rawValue
        /// The window was dismissed (its button, the window manager, Esc/Ctrl+W, or `Close`);
        /// sent once per handle, last.
        public static let finished = Session1.finished.name.rawValue
        /// Whether the window activated with the token became the active window (§11):
        /// `activated` (b). Sent once for every `Open` with `activation_token`, within 2 s of
        /// `Open` returning; the broker uses it only when it kept a click to prove.
        public static let clickActivated = "ClickActivated"
        /// A load of the window (main frame or subresource) was redirected (§11): `url` (s),
        /// the redirect's target, and `page` (s), the main frame's URL when that load began.
        /// Sent only when the target looks like a trigger (https, path starting
        /// `/.well-known/private-click-measurement/trigger-attribution/`): no other browsing
        /// reaches the broker. The broker checks the exact form.
        public static let attributionTrigger = "AttributionTrigger"
    }

    /// Keys of `Event`'s details.
    public enum DetailKey {
        public static let success = "success", url = "url", activated = "activated", page = "page"
    }

    /// Keys of `Open`'s options (API.md §10, `Broker1.Browse`).
    public enum OptionKey {
        /// s: `done` | `close` | `cancel`.
        public static let dismissButtonStyle = "dismiss_button_style"
        /// s: `#rrggbb`, the colour of the controls.
        public static let controlTint = "control_tint"
        /// s: `#rrggbb`, the colour of the header bar.
        public static let barTint = "bar_tint"
        /// b: show the article view at once when the page has one.
        public static let entersReaderIfAvailable = "enters_reader_if_available"
        /// b (default true): whether the bars may collapse while scrolling.
        public static let barCollapsingEnabled = "bar_collapsing_enabled"
        /// as: activity ids or `category:…` left out of the Action sheet.
        public static let exclude = ActivityBrokerInterface.OptionKey.exclude
        /// s: lets the window take the focus.
        public static let activationToken = ActivityBrokerInterface.OptionKey.activationToken
        /// a{sv}: Private Click Measurement (§11); the broker validates and strips it, the
        /// window ignores it.
        public static let eventAttribution = "event_attribution"
    }

    /// The allow-list of `Open`'s options: key → type.
    public static let openOptions: [String: Signature] = [
        OptionKey.dismissButtonStyle: "s", OptionKey.controlTint: "s", OptionKey.barTint: "s",
        OptionKey.entersReaderIfAvailable: "b", OptionKey.barCollapsingEnabled: "b", OptionKey.exclude: "as",
        OptionKey.activationToken: "s", OptionKey.eventAttribution: "a{sv}",
    ]
}
