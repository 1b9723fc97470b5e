// The org.activitybroker.Job1 interface (API.md §6): job paths, Cancel, State, Finished.
import DBus

/// A job object, exported at the path `Perform` returned.
public enum Job1 {
    public static let interface: InterfaceName = "org.activitybroker.Job1"

    /// The parent of every job's path, `<Broker1 path>/job` (no object of its own).
    public static let parentPath = try! ObjectPath(Broker1.objectPath.rawValue + "/job")

    /// The path of the job named `token` (letters, digits and `_`), below the broker's object.
    ///
    /// The broker makes the token from 128 random bits, so that no client can guess another
    /// caller's job path (API.md §6: a job is its caller's business).
    public static func path(token: String) -> ObjectPath {
        try! ObjectPath(parentPath.rawValue + "/" + token)
    }

    /// `Cancel() → ()`: only the connection that called `Perform` may.
    public static let cancel = MethodSignature(interface, "Cancel")
    /// `ActivityId` (s): constant for `Perform` jobs; for a `Share` job "" until the user
    /// chose, then set once (announced with `State`).
    public static let activityID = PropertySignature("ActivityId", "s")
    /// `State` (s): a `JobState`.
    public static let state = PropertySignature("State", "s")
    /// `Finished(s state, a{sv} results)`: unicast to the job's caller; results are `ResultKey`s
    /// and whatever the provider returned.
    public static let finished = SignalSpec(
        "Finished", arguments: [Argument("state", "s"), Argument("results", "a{sv}")])
}

/// A job's state as the wire spells it (`State`, `Finished`, a provider's reply).
public enum JobState: String, Sendable {
    /// A `Share` job whose sheet is open: nothing chosen yet, `ActivityId` is "".
    case choosing
    case running, completed, cancelled, failed

    /// Whether the job has ended (`Finished` was sent).
    public var isFinal: Bool {
        switch self {
        case .choosing, .running: false
        case .completed, .cancelled, .failed: true
        }
    }
}
