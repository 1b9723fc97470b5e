// The org.activitybroker.Job1 interface (API.md §6): job paths, Cancel, State, Finished.
import DBus

/// A job object, exported at the path `Perform` returned.
public enum Job1: TokenObjectInterface {
    public static let interface: InterfaceName = "org.activitybroker.Job1"

    public static let pathElement = "job"

    /// `Cancel() → ()`: only the connection that called `Perform` may.
    public static let cancel = method("Cancel")
    /// `ActivityId` (s): constant for `Perform` jobs; for a `Share` job "" until the user
    /// chose, then set once (announced with `State`).
    public static let activityID = PropertySpec("ActivityId", "s")
    /// `State` (s): a `JobState`.
    public static let state = PropertySpec("State", "s")
    /// `Finished(s state, a{sv} results)`: unicast to the job's caller; results are `ResultKey`s
    /// and whatever the provider returned.
    public static let finished = signal("Finished", "s state, a{sv} results")
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
