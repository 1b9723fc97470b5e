// The org.activitybroker.impl.Sheet1 interface of the share sheet's UI service (API.md §10): names, methods, keys.
import DBus

/// The sheet service's bus name, object, interface and methods, spelled once for the sheet
/// (`activity-sheet`), the broker that calls it and the tests.
///
/// Only the owner of `Broker1.busName` may call it: anyone else gets
/// `BrokerErrorName.accessDenied`. Items use `ItemKey`, activity records `RecordKey`, options
/// `OptionKey` (`locale`, `activation_token`); unknown keys are ignored.
public enum Sheet1: ServiceInterface {
    /// The well-known name `activity-sheet` owns (started by D-Bus activation).
    public static let busName: BusName = "org.activitybroker.Sheet"
    /// The one object the service exports; `handle`s are not exported.
    public static let objectPath: ObjectPath = "/org/activitybroker/Sheet"
    public static let interface: InterfaceName = "org.activitybroker.impl.Sheet1"

    /// `Show(o handle, s app_id, s parent_window, a{sv} items, aa{sv} activities, a{sv} options)
    /// → (u response, a{sv} results)`: replies once the user has chosen (`Response.chosen`) or
    /// dismissed the sheet, so the caller must allow the whole choosing time as the call's timeout.
    public static let show = method(
        "Show", in: "o handle, s app_id, s parent_window, a{sv} items, aa{sv} activities, a{sv} options",
        out: "u response, a{sv} results")
    /// `Update(o handle, s state, s message) → ()`: `state` is `running`, `completed`,
    /// `cancelled` or `failed` (`JobState`'s spelling). A handle with no sheet is a no-op.
    public static let update = method("Update", in: "o handle, s state, s message")
    /// `Close(o handle) → ()`: a handle with no sheet is a no-op.
    public static let close = method("Close", in: "o handle")

    /// The `response` of `Show`.
    public enum Response: UInt32, Sendable {
        /// An activity was chosen: the results carry `activity_id` and `activation_token`.
        case chosen = 0
        case cancelled = 1
        /// The sheet could not be shown (no display): the results carry `message`.
        case failed = 2
    }

    /// Keys of `Show`'s results besides `ResultKey.message`.
    public enum ShowResultKey {
        public static let activityID = ResultKey.activityID
        /// s: lets the launched app take the focus (`XDG_ACTIVATION_TOKEN` / X11 startup id).
        public static let activationToken = OptionKey.activationToken
    }
}
