// The org.activitybroker.Job1 interface (API.md §6): job paths, Cancel, State, Finished.
import DBus

/// A job object, exported at the path `Perform` returned.
public enum Job1 {
    public static let interface: InterfaceName = "org.activitybroker.Job1"

    /// The path of job `number`, below the broker's object.
    public static func path(_ number: UInt64) -> ObjectPath {
        try! ObjectPath(Broker1.objectPath.rawValue + "/job/\(number)")
    }

    /// `Cancel() → ()`: only the connection that called `Perform` may.
    public static let cancel = MethodSignature(interface, "Cancel")
    /// `ActivityId` (s), constant.
    public static let activityID = PropertySignature("ActivityId", "s", emitsChanged: false)
    /// `State` (s): a `JobState`.
    public static let state = PropertySignature("State", "s")
    /// `Finished(s state, a{sv} results)`: unicast to the job's caller; results are `ResultKey`s
    /// and whatever the provider returned.
    public static let finished = SignalSpec(
        "Finished", arguments: [Argument("state", "s"), Argument("results", "a{sv}")])
}

/// A job's state as the wire spells it (`State`, `Finished`, a provider's reply).
public enum JobState: String, Sendable {
    case running, completed, cancelled, failed
}
