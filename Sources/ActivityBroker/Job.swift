// One performed activity: its state, its D-Bus object and how to stop it.
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
        let dbusError = error.dbusError
        return JobOutcome(
            state: .failed,
            results: [ResultKey.error: .string(dbusError.name), ResultKey.message: .string(dbusError.message)])
    }
}

/// A job. Loop-confined like the broker that owns it.
final class Job: @unchecked Sendable {
    let number: UInt64
    let path: ObjectPath
    let activityID: ActivityID
    /// The unique name that called `Perform`: the only one told of the end, the only one that may cancel.
    let caller: String
    private(set) var state: JobState = .running
    /// Stops the running dispatch; nil once the job ended.
    var running: (any RunningDispatch)?
    var timeoutTimer: (any DispatchSourceTimer)?

    init(number: UInt64, activityID: ActivityID, caller: String) {
        self.number = number
        self.path = Job1.path(number)
        self.activityID = activityID
        self.caller = caller
    }

    /// Moves to a final state once; returns false when the job had already ended, so that
    /// exactly one `Finished` is sent whatever races (exit, timeout, cancel, disconnect).
    func end(_ state: JobState) -> Bool {
        precondition(state != .running, "a job ends in a final state")
        guard self.state == .running else { return false }
        self.state = state
        running = nil
        timeoutTimer?.cancel()
        timeoutTimer = nil
        return true
    }
}

/// A dispatch in progress that can be abandoned (the child killed, the call dropped).
protocol RunningDispatch: AnyObject {
    func cancel()
}
