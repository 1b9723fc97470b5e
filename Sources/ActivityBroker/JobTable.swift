// Creates jobs for Perform, exports their Job1 objects and ends each exactly once.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Foundation

/// The broker's jobs by number. Loop-confined (the connection's loop, like every feature).
///
/// Its inputs are explicit: the activities to look up and check, the dispatcher that runs
/// them, and `completed`, told of each job that completed (the usage ranking counts it).
final class JobTable: @unchecked Sendable {
    private let connection: Connection
    private let activities: ActivityState
    private let log: BrokerLog
    private let afterlife: Duration
    private let completed: (ActivityID) -> Void
    private var jobs: [UInt64: Job] = [:]
    private var runningByCaller: [String: Int] = [:]
    private var nextNumber: UInt64 = 1
    private let dispatcher: Dispatcher

    static let defaultTimeout: UInt32 = 300
    static let maximumTimeout: UInt32 = 3600
    /// Running jobs one connection may have at once, so that no caller can make the broker
    /// spawn without bound.
    static let maximumRunningPerCaller = 64

    init(
        connection: Connection, activities: ActivityState, dispatcher: Dispatcher, log: BrokerLog,
        afterlife: Duration, completed: @escaping (ActivityID) -> Void
    ) {
        self.connection = connection
        self.activities = activities
        self.dispatcher = dispatcher
        self.log = log
        self.afterlife = afterlife
        self.completed = completed
    }

    /// `Perform`: every check happens before the job exists (API.md §3), then the job is
    /// exported and its dispatch starts after the reply has gone out.
    func perform(id: String, items rawItems: [String: Value], options rawOptions: [String: Value], caller: String)
        throws(ActivityError) -> ObjectPath
    {
        connection.assertOnLoop()
        let activity = try activities.lookUp(id)
        let items = try ItemsDecoder.decode(rawItems)
        let options = try OptionSchema.perform.validate(rawOptions)
        let timeout = options[OptionKey.timeout]?.uint32 ?? Self.defaultTimeout
        guard (1...Self.maximumTimeout).contains(timeout) else {
            throw .invalidArgument("Perform: option 'timeout' must be 1 to \(Self.maximumTimeout) seconds, got \(timeout)")
        }
        if case .rejects(let reason) = activity.match.evaluate(items.url) {
            throw .notApplicable("\(activity.id) does not apply: \(reason)")
        }
        guard case .available(let resolved) = activities.availability(of: activity) else {
            if case .unavailable(let reason) = activities.availability(of: activity) {
                throw .unavailable("\(activity.id) is unavailable: \(reason)")
            }
            preconditionFailure("availability is either available or unavailable")
        }
        let plan = try dispatcher.plan(
            resolved, activity: activity, items: items, activationToken: options[OptionKey.activationToken]?.string)
        let running = runningByCaller[caller, default: 0]
        guard running < Self.maximumRunningPerCaller else {
            throw .limitExceeded("\(caller) already has \(running) running jobs; wait for one to finish")
        }

        let job = Job(number: nextNumber, activityID: activity.id, caller: caller)
        nextNumber += 1
        do {
            try connection.export(job.path, interfaces: [jobInterface(job)])
        } catch {
            preconditionFailure("job paths are unique: \(error)")
        }
        jobs[job.number] = job
        runningByCaller[caller, default: 0] += 1
        log.event("job \(job.number): \(activity.id) started (by \(caller))")
        connection.queue.async { [self] in start(job, plan: plan, timeout: timeout) }
        return job.path
    }

    /// Cancels every running job (shutdown): their callers get `Finished(cancelled)`.
    func cancelAll() {
        for job in jobs.values where job.state == .running { cancel(job) }
    }

    private func start(_ job: Job, plan: DispatchPlan, timeout: UInt32) {
        guard job.state == .running else { return }
        let timer = DispatchSource.makeTimerSource(queue: connection.queue)
        timer.schedule(deadline: .now() + .seconds(Int(timeout)))
        timer.setEventHandler { [unowned self] in
            job.running?.cancel()
            finish(job, .failed(.timeout("\(job.activityID) did not finish within \(timeout) seconds")))
        }
        job.timeoutTimer = timer
        timer.resume()
        job.running = dispatcher.start(plan, timeout: timeout) { [unowned self] outcome in
            finish(job, outcome)
        }
    }

    private func cancel(_ job: Job) {
        job.running?.cancel()
        finish(job, .cancelled)
    }

    /// Ends the job once: state, `PropertiesChanged`, the unicast `Finished`, the usage
    /// count when it completed, the log line, and removal after the afterlife.
    private func finish(_ job: Job, _ outcome: JobOutcome) {
        guard job.end(outcome.state) else { return }
        runningByCaller[job.caller, default: 1] -= 1
        if runningByCaller[job.caller] == 0 { runningByCaller[job.caller] = nil }
        connection.emitPropertiesChanged(path: job.path, interface: Job1.interface, names: [Job1.state.name.rawValue])
        do {
            try connection.emit(
                Signal(
                    path: job.path, interface: Job1.interface, member: Job1.finished.name,
                    body: [.string(outcome.state.rawValue), .vardict(outcome.results)],
                    destination: try BusName(job.caller)))
        } catch {
            log.event("job \(job.number): could not send Finished: \(error)")
        }
        if outcome.state == .completed { completed(job.activityID) }
        let errorName = outcome.results[ResultKey.error]?.string.map { " (\($0))" } ?? ""
        log.event("job \(job.number): \(job.activityID) \(outcome.state.rawValue)\(errorName)")

        let connection = connection
        connection.queue.asyncAfter(deadline: .now() + .nanoseconds(Int(afterlife.nanoseconds))) { [weak self] in
            self?.jobs[job.number] = nil
            connection.unexport(job.path)
        }
    }

    private func jobInterface(_ job: Job) -> Interface {
        Interface(
            Job1.interface,
            methods: [
                Job1.cancel.method(
                    .immediate { [unowned self] call in
                        guard call.sender == job.caller else {
                            throw ActivityError.accessDenied("only the connection that called Perform may cancel job \(job.number)")
                        }
                        if job.state == .running {
                            log.event("job \(job.number): cancel requested by its caller")
                            cancel(job)
                        }
                        return []
                    })
            ],
            properties: [
                Job1.activityID.property { .string(job.activityID.rawValue) },
                Job1.state.property { .string(job.state.rawValue) },
            ],
            signals: [Job1.finished])
    }
}

extension Duration {
    /// Whole nanoseconds, for Dispatch deadlines.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
