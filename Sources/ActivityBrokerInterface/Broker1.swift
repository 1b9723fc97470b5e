// The org.activitybroker.Broker1 interface (API.md §1, §3): names, method signatures, options.
import DBus

/// The broker's bus name, object and interface, spelled once for the service, the client,
/// the bench and the tests.
public enum Broker1 {
    /// The well-known name the broker owns on the session bus.
    public static let busName: BusName = "org.activitybroker.Broker1"
    public static let objectPath: ObjectPath = "/org/activitybroker/Broker1"
    public static let interface: InterfaceName = "org.activitybroker.Broker1"

    /// A call of `method` on the broker object, with `body`.
    public static func call(_ method: MethodSignature, _ body: [Value] = []) -> MethodCall {
        method.call(busName, path: objectPath, body: body)
    }

    // MARK: Methods

    /// `ListActivities(a{sv} items, a{sv} options) → (aa{sv} activities)`.
    public static let listActivities = MethodSignature(
        interface, "ListActivities", in: [Argument("items", "a{sv}"), Argument("options", "a{sv}")],
        out: [Argument("activities", "aa{sv}")], readOnly: true)
    /// `Perform(s id, a{sv} items, a{sv} options) → (o job)`.
    public static let perform = MethodSignature(
        interface, "Perform", in: [Argument("id", "s"), Argument("items", "a{sv}"), Argument("options", "a{sv}")],
        out: [Argument("job", "o")])
    /// `RegisterActivity(a{sv} activity) → ()`; the keys are `RegistrationKey`.
    public static let registerActivity = MethodSignature(interface, "RegisterActivity", in: [Argument("activity", "a{sv}")])
    /// `UnregisterActivity(s id) → ()`.
    public static let unregisterActivity = MethodSignature(interface, "UnregisterActivity", in: [Argument("id", "s")])
    /// `ListRegistered(a{sv} options) → (aa{sv} activities)`.
    public static let listRegistered = MethodSignature(
        interface, "ListRegistered", in: [Argument("options", "a{sv}")], out: [Argument("activities", "aa{sv}")],
        readOnly: true)
    /// `Explain(s id, a{sv} items) → (b applies, s reason)`.
    public static let explain = MethodSignature(
        interface, "Explain", in: [Argument("id", "s"), Argument("items", "a{sv}")],
        out: [Argument("applies", "b"), Argument("reason", "s")], readOnly: true)
    /// `ClearHistory() → ()`.
    public static let clearHistory = MethodSignature(interface, "ClearHistory")
    /// `ClearAttributions() → ()`: forgets every pending click measurement click and report
    /// (API.md §11, `share attributions --clear`). Listing has no method: `share attributions`
    /// reads the user's own store file, so no app on the bus can read the user's ad clicks.
    public static let clearAttributions = MethodSignature(interface, "ClearAttributions")
    /// `ReportAttributionTrigger(s url, s page) → ()`: a redirect the terminal's browsing session
    /// (`share browse`) followed to a Private Click Measurement trigger (API.md §11): `url`, the
    /// redirect's target, `page`, the URL its load began at. Accepted only from a process running
    /// `triggerReporterExecutable` installed beside the broker (`AccessDenied` for anyone else,
    /// whatever the arguments); then a `url` that is not an exact trigger or a `page` that is not
    /// an http(s) URL is `InvalidArgument`. The browser window reports its triggers as
    /// `Browser1` events instead.
    public static let reportAttributionTrigger = MethodSignature(
        interface, "ReportAttributionTrigger", in: [Argument("url", "s"), Argument("page", "s")])
    /// The executable, in the broker's own directory, whose processes alone may call
    /// `reportAttributionTrigger`.
    public static let triggerReporterExecutable = "share"
    /// `Share(s parent_window, a{sv} items, a{sv} options) → (o job)` (API.md §10).
    public static let share = MethodSignature(
        interface, "Share",
        in: [Argument("parent_window", "s"), Argument("items", "a{sv}"), Argument("options", "a{sv}")],
        out: [Argument("job", "o")])
    /// `Browse(s parent_window, s url, a{sv} options) → (o session)` (API.md §10): opens the
    /// browser window; the returned `Session1` object reports to the caller alone.
    public static let browse = MethodSignature(
        interface, "Browse",
        in: [Argument("parent_window", "s"), Argument("url", "s"), Argument("options", "a{sv}")],
        out: [Argument("session", "o")])
    /// `Prewarm(as urls) → ()`: best-effort DNS prefetch of URLs the app may soon `Browse`;
    /// returns at once.
    public static let prewarm = MethodSignature(interface, "Prewarm", in: [Argument("urls", "as")])

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
    public static let version = PropertySignature("Version", "s", emitsChanged: false)
    /// `ActivityCount` (u): every registered activity, available or not.
    public static let activityCount = PropertySignature("ActivityCount", "u")
    /// `ActivitiesChanged()`: broadcast, carries nothing.
    public static let activitiesChanged = SignalSpec("ActivitiesChanged")
}
