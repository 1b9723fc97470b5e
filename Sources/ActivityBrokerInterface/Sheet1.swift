// The wire contract of the sheet service, org.activitybroker.impl.Sheet1 (API.md §10), spelled once.
import DBus

/// Names, signatures and keys of the share sheet's UI service interface.
///
/// The broker calls it (`Show`, `Update`, `Close`); `activity-sheet` implements it. Only the
/// owner of `org.activitybroker.Broker1` may call it: anyone else gets `accessDenied`.
public enum Sheet1 {
    /// The well-known name `activity-sheet` owns (started by D-Bus activation).
    public static let busName: BusName = "org.activitybroker.Sheet"
    /// The one object the service exports.
    public static let objectPath: ObjectPath = "/org/activitybroker/Sheet"
    public static let interfaceName: InterfaceName = "org.activitybroker.impl.Sheet1"

    /// The only name whose owner may call the sheet.
    public static let brokerBusName: BusName = "org.activitybroker.Broker1"
    /// The error a caller other than the broker receives.
    public static let accessDenied = "org.activitybroker.Error.AccessDenied"

    /// Member names.
    public enum Member {
        /// `Show(o handle, s app_id, s parent_window, a{sv} items, aa{sv} activities, a{sv} options)
        /// → (u response, a{sv} results)`; replies when the user has chosen or dismissed.
        public static let show: MemberName = "Show"
        /// `Update(o handle, s state, s message)`.
        public static let update: MemberName = "Update"
        /// `Close(o handle)`.
        public static let close: MemberName = "Close"
    }

    public static let showInSignature: Signature = "ossa{sv}aa{sv}a{sv}"
    public static let showOutSignature: Signature = "ua{sv}"
    public static let updateInSignature: Signature = "oss"
    public static let closeInSignature: Signature = "o"

    /// The `response` of `Show`.
    public enum Response: UInt32, Sendable {
        /// An activity was chosen: results carry `activity_id` and `activation_token`.
        case chosen = 0
        case cancelled = 1
        /// The sheet could not be shown: results carry `message`.
        case failed = 2
    }

    /// Keys of `Show`'s results.
    public enum ResultKey {
        public static let activityID = "activity_id"
        public static let activationToken = "activation_token"
        public static let message = "message"
    }

    /// Keys of `Show`'s options.
    public enum OptionKey {
        /// s: the locale of the sheet's own strings, e.g. `de_DE`.
        public static let locale = "locale"
        /// s: an XDG activation token (X11 startup id) that lets the sheet take focus.
        public static let activationToken = "activation_token"
    }

    /// Keys of each activity record given to `Show` (API.md §2).
    public enum ActivityKey {
        public static let id = "id"
        public static let name = "name"
        public static let icon = "icon"
        public static let category = "category"
    }

    /// The `state` argument of `Update`.
    public enum State: String, Sendable, CaseIterable {
        case running, completed, cancelled, failed
    }
}
