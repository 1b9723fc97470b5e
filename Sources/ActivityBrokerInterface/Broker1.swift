// The org.activitybroker.Broker1 interface (API.md §1, §3): names, method signatures, options.
import DBus

/// The broker's bus name, object and interface, spelled once for the service, the client,
/// the bench and the tests.
public enum Broker1: ServiceInterface {
    /// The well-known name the broker owns on the session bus.
    public static let busName: BusName = "org.activitybroker.Broker1"
    public static let objectPath: ObjectPath = "/org/activitybroker/Broker1"
    public static let interface: InterfaceName = "org.activitybroker.Broker1"

    /// `<objectPath>/<element>/<token>`: where the broker's jobs and sessions live, and the
    /// handles it gives its UI services (nothing is exported at those).
    public static func path(below element: String, token: String) -> ObjectPath {
        try! ObjectPath(objectPath.rawValue + "/" + element + "/" + token)
    }

    // MARK: Methods

    /// `ListActivities(a{sv} items, a{sv} options) → (aa{sv} activities)`.
    public static let listActivities = method(
        "ListActivities", in: "a{sv} items, a{sv} options", out: "aa{sv} activities", readOnly: true)
    /// `Perform(s id, a{sv} items, a{sv} options) → (o job)`.
    public static let perform = method("Perform", in: "s id, a{sv} items, a{sv} options", out: "o job")
    /// `RegisterActivity(a{sv} activity) → ()`; the keys are `RegistrationKey`.
    public static let registerActivity = method("RegisterActivity", in: "a{sv} activity")
    /// `UnregisterActivity(s id) → ()`.
    public static let unregisterActivity = method("UnregisterActivity", in: "s id")
    /// `ListRegistered(a{sv} options) → (aa{sv} activities)`.
    public static let listRegistered = method(
        "ListRegistered", in: "a{sv} options", out: "aa{sv} activities", readOnly: true)
    /// `Explain(s id, a{sv} items) → (b applies, s reason)`.
    public static let explain = method(
        "Explain", in: "s id, a{sv} items", out: "b applies, s reason", readOnly: true)
    /// `ClearHistory() → ()`.
    public static let clearHistory = method("ClearHistory")
    /// `ClearAttributions() → ()`: forgets every pending click measurement click and report
    /// (API.md §11, `share attributions --clear`). Listing has no method: `share attributions`
    /// reads the user's own store file, so no app on the bus can read the user's ad clicks.
    public static let clearAttributions = method("ClearAttributions")
    /// `ReportAttributionTrigger(s url, s page) → ()`: a redirect the terminal's browsing session
    /// (`share browse`) followed to a Private Click Measurement trigger (API.md §11): `url`, the
    /// redirect's target, `page`, the URL its load began at. A `url` that is not an exact trigger
    /// or a `page` that is not an http(s) URL is `InvalidArgument` at once, whoever calls; then
    /// the call is accepted only from a process running `triggerReporterExecutable` installed
    /// beside the broker (`AccessDenied` for anyone else). The browser window reports its
    /// triggers as `Browser1` events instead.
    public static let reportAttributionTrigger = method("ReportAttributionTrigger", in: "s url, s page")
    /// The executable, in the broker's own directory, whose processes alone may call
    /// `reportAttributionTrigger`.
    public static let triggerReporterExecutable = "share"
    /// `Share(s parent_window, a{sv} items, a{sv} options) → (o job)` (API.md §10).
    public static let share = method("Share", in: "s parent_window, a{sv} items, a{sv} options", out: "o job")
    /// `Browse(s parent_window, s url, a{sv} options) → (o session)` (API.md §10): opens the
    /// browser window; the returned `Session1` object reports to the caller alone.
    public static let browse = method("Browse", in: "s parent_window, s url, a{sv} options", out: "o session")
    /// `Prewarm(as urls) → ()`: best-effort DNS prefetch of URLs the app may soon `Browse`;
    /// returns at once.
    public static let prewarm = method("Prewarm", in: "as urls")

    // MARK: Options (allow-lists: key → type)

    /// The options `ListActivities` accepts.
    public static let listActivitiesOptions: [String: Signature] = [
        OptionKey.locale: "s", OptionKey.exclude: "as", OptionKey.includeOwn: "b",
    ]
    /// The options `Perform` accepts.
    public static let performOptions: [String: Signature] = [OptionKey.activationToken: "s", OptionKey.timeout: "u"]
    /// The options `Share` accepts. `session` is honoured only from the owner of
    /// `org.activitybroker.Browser` (its Action button); anyone else gets `AccessDenied`.
    public static let shareOptions: [String: Signature] = [
        OptionKey.exclude: "as", OptionKey.locale: "s", OptionKey.timeout: "u", OptionKey.activationToken: "s",
        OptionKey.session: "o",
    ]
    /// The name whose owner alone may pass `Share`'s `session` option.
    public static let browserBusName: BusName = Browser1.busName
    /// The options `Browse` accepts: the window's own (`Browser1.openOptions`, keys
    /// `Browser1.OptionKey`); the broker checks their values and keeps `event_attribution`.
    public static let browseOptions: [String: Signature] = Browser1.openOptions
    /// URLs one `Prewarm` may name (`LimitExceeded` beyond).
    public static let prewarmMaximumURLs = 16
    /// The options `ListRegistered` accepts.
    public static let listRegisteredOptions: [String: Signature] = [OptionKey.locale: "s"]

    // MARK: Properties and signals

    /// `Version` (s), constant.
    public static let version = PropertySpec("Version", "s", emitsChanged: false)
    /// `ActivityCount` (u): every registered activity, available or not.
    public static let activityCount = PropertySpec("ActivityCount", "u")
    /// `ActivitiesChanged()`: broadcast, carries nothing.
    public static let activitiesChanged = signal("ActivitiesChanged")
}
