// One job while it runs (a Perform, or a Share from choosing to its end): its state, its caller, its deadline and how to stop it.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Dispatch
import Glibc

/// How a dispatch ended: the job's final state and the `Finished` results.
struct JobOutcome: Sendable {
    var state: JobState
    var results: [String: Value]

    static let completed = JobOutcome(state: .completed, results: [:])
    static let cancelled = JobOutcome(state: .cancelled, results: [:])

    /// A failure with the error name and message `Finished` carries.
    static func failed(_ error: ActivityError) -> JobOutcome {
        failed(error.dbusError)
    }

    /// A failure named after a D-Bus error that is not the broker's own (a sheet that
    /// crashed: `org.freedesktop.DBus.Error.NoReply`), with a message for people.
    static func failed(_ error: DBusError) -> JobOutcome {
        JobOutcome(
            state: .failed, results: [ResultKey.error: .string(error.name), ResultKey.message: .string(error.message)])
    }

    /// The failure's message, if any (for the sheet's `Update`).
    var message: String { results[ResultKey.message]?.string ?? "" }
}

/// A job while it runs (or, for `Share`, while the sheet is open). Loop-confined like the
/// broker that owns it. Once it ends, `JobTable` keeps only a `FinishedJobs.Row` of it.
final class Job: @unchecked Sendable {
    /// For log lines only; the path carries a random token instead.
    let number: UInt64
    let token: JobToken
    let path: ObjectPath
    /// The activity performed; nil while a `Share` job is choosing (`ActivityId` is "").
    var activityID: ActivityID?
    /// The unique name that called `Perform` or `Share`: the only one told of the end, the
    /// only one that may read its properties or cancel it.
    let caller: String
    /// `caller` as the destination of the job's unicast signals (nil only if it were not a
    /// valid bus name, which the bus never gives: then nothing is sent rather than broadcast).
    let destination: BusName?
    private(set) var state: JobState
    /// Stops what the job is waiting for (the child, the provider call, the open sheet); nil
    /// once the job ended.
    var running: (any RunningDispatch)?
    /// The job's timeout in seconds, for its message, and the uptime (`DispatchTime`
    /// nanoseconds) at which it ends the job: the job table's one timer watches it.
    let timeout: UInt32
    let deadline: UInt64
    /// Runs once when the job ends, before `Finished` is sent (the sheet's last `Update`).
    var whenFinished: ((JobOutcome) -> Void)?
    /// Watches that end with the job (the `Share` caller's disconnect).
    var subscriptions: [Subscription] = []
    /// Whether `Finished` carries `activity_id` (a `Share` job: the caller did not choose it).
    let reportsActivityID: Bool

    init(
        number: UInt64, token: JobToken, activityID: ActivityID?, caller: String, state: JobState, timeout: UInt32,
        deadline: UInt64
    ) {
        precondition(!state.isFinal, "a job starts choosing or running")
        self.number = number
        self.token = token
        self.path = token.path
        self.activityID = activityID
        self.caller = caller
        self.destination = try? BusName(caller)
        self.state = state
        self.timeout = timeout
        self.deadline = deadline
        self.reportsActivityID = state == .choosing
    }

    /// What log lines call it: the activity, or "share" before a choice.
    var subject: String { activityID?.rawValue ?? "share (choosing)" }

    /// A `choosing` job's move to `running` with the chosen activity.
    func chose(_ id: ActivityID) {
        precondition(state == .choosing, "only a choosing job chooses")
        activityID = id
        state = .running
    }

    /// Moves to a final state once; returns false when the job had already ended, so that
    /// exactly one `Finished` is sent whatever races (exit, timeout, cancel, disconnect).
    func end(_ state: JobState) -> Bool {
        precondition(state.isFinal, "a job ends in a final state")
        guard !self.state.isFinal else { return false }
        self.state = state
        running = nil
        return true
    }

    /// 128 random bits as 32 hex digits: a path element no other client can guess.
    static func randomToken() -> String { JobToken.random().pathElement }
}

/// A dispatch in progress that can be abandoned (the child killed, the call dropped).
protocol RunningDispatch: AnyObject {
    func cancel()
}
