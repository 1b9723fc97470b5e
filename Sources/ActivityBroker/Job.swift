// One job (a Perform, or a Share from choosing to its end): its state, its D-Bus object and how to stop it.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Foundation

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

/// A job. Loop-confined like the broker that owns it.
final class Job: @unchecked Sendable {
    /// For log lines only; the path carries a random token instead.
    let number: UInt64
    let path: ObjectPath
    /// The activity performed; nil while a `Share` job is choosing (`ActivityId` is "").
    var activityID: ActivityID?
    /// The unique name that called `Perform` or `Share`: the only one told of the end, the
    /// only one that may read its properties or cancel it.
    let caller: String
    private(set) var state: JobState
    /// Stops what the job is waiting for (the child, the provider call, the open sheet); nil
    /// once the job ended.
    var running: (any RunningDispatch)?
    var timeoutTimer: (any DispatchSourceTimer)?
    /// When the job's timeout ends it (set when it is armed, at creation).
    var deadline: ContinuousClock.Instant?
    /// Runs once when the job ends, before `Finished` is sent (the sheet's last `Update`).
    var whenFinished: ((JobOutcome) -> Void)?
    /// Watches that end with the job (the `Share` caller's disconnect).
    var subscriptions: [Subscription] = []
    /// Whether `Finished` carries `activity_id` (a `Share` job: the caller did not choose it).
    let reportsActivityID: Bool

    init(number: UInt64, token: String, activityID: ActivityID?, caller: String, state: JobState) {
        precondition(!state.isFinal, "a job starts choosing or running")
        self.number = number
        self.path = Job1.path(token: token)
        self.activityID = activityID
        self.caller = caller
        self.state = state
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
        timeoutTimer?.cancel()
        timeoutTimer = nil
        return true
    }

    /// 128 random bits as 32 hex digits: a path element no other client can guess.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return [generator.next(), generator.next()].map { (word: UInt64) in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}

/// A dispatch in progress that can be abandoned (the child killed, the call dropped).
protocol RunningDispatch: AnyObject {
    func cancel()
}
