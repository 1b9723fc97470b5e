// Creates jobs for Perform and Share, exports their Job1 objects, bounds how many run, and ends each exactly once.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Foundation

/// The broker's jobs by number. Loop-confined (the connection's loop, like every feature).
///
/// Its inputs are explicit: the activities to look up and check, the dispatcher that runs
/// them, and `completed`, told of each job that completed (the usage ranking counts it).
///
/// A job is its caller's business (API.md §6): its path carries a random token and is left
/// out of introspection, its properties answer only the caller (`AccessDenied` for anyone
/// else), and `PropertiesChanged` and `Finished` are unicast to the caller.
final class JobTable: @unchecked Sendable {
    private let connection: Connection
    private let activities: ActivityState
    private let log: BrokerLog
    private let afterlife: Duration
    private let maximumRunning: Int
    /// Told of each completed job: its activity and its caller (whose own uses do not count).
    private let completed: (ActivityID, String) -> Void
    private var jobs: [UInt64: Job] = [:]
    private var runningByCaller: [String: Int] = [:]
    /// Jobs not yet ended (choosing or running), across all callers.
    private var runningCount = 0
    private var nextNumber: UInt64 = 1
    private let dispatcher: Dispatcher

    static let defaultTimeout: UInt32 = 300
    static let maximumTimeout: UInt32 = 3600
    /// Running jobs one connection may have at once, so that no caller can make the broker
    /// spawn without bound.
    static let maximumRunningPerCaller = 64
    /// Running jobs (and so children and provider calls) across all callers by default: 32
    /// connections within their own limit must not make the broker run 2,048 children.
    static let defaultMaximumRunning = BrokerConfiguration().maximumRunningJobs

    init(
        connection: Connection, activities: ActivityState, dispatcher: Dispatcher, log: BrokerLog,
        afterlife: Duration, maximumRunning: Int = JobTable.defaultMaximumRunning,
        completed: @escaping (ActivityID, String) -> Void
    ) {
        self.connection = connection
        self.activities = activities
        self.dispatcher = dispatcher
        self.log = log
        self.afterlife = afterlife
        self.maximumRunning = maximumRunning
        self.completed = completed
    }

    // MARK: Perform

    /// `Perform`: every check happens before the job exists (API.md §3), then the job is
    /// exported and its dispatch starts after the reply has gone out.
    func perform(id: String, items rawItems: [String: Value], options rawOptions: [String: Value], caller: String)
        throws(ActivityError) -> ObjectPath
    {
        connection.assertOnLoop()
        let activity = try activities.lookUp(id, caller: caller)
        let items = try ItemsDecoder.decode(rawItems)
        let options = try OptionSchema.perform.validate(rawOptions)
        let timeout = try Self.timeout(options, method: Broker1.perform.name.rawValue)
        let plan = try prepare(activity, items: items, activationToken: options[OptionKey.activationToken]?.string)
        try admit(caller: caller)
        let job = create(caller: caller, activityID: activity.id, state: .running, timeout: timeout)
        log.event("job \(job.number): \(activity.id) started (by \(caller))")
        connection.queue.async { [self] in start(job, plan: plan) }
        return job.path
    }

    /// The `timeout` option (seconds), checked against its bounds.
    static func timeout(_ options: [String: Value], method: String) throws(ActivityError) -> UInt32 {
        let timeout = options[OptionKey.timeout]?.uint32 ?? defaultTimeout
        guard (1...maximumTimeout).contains(timeout) else {
            throw .invalidArgument("\(method): option 'timeout' must be 1 to \(maximumTimeout) seconds, got \(timeout)")
        }
        return timeout
    }

    /// The checks of `Perform` once the activity is known: its match rules, its availability
    /// and the expansion of its perform spec. Throws `notApplicable`, `unavailable` or
    /// `invalidArgument`. `Share` runs them again on the chosen activity.
    func prepare(_ activity: Activity, items: Items, activationToken: String?) throws(ActivityError) -> DispatchPlan {
        if case .rejects(let reason) = activity.match.evaluate(items.url) {
            throw .notApplicable("\(activity.id) does not apply: \(reason)")
        }
        switch activities.availability(of: activity) {
        case .available(let resolved):
            return try dispatcher.plan(resolved, activity: activity, items: items, activationToken: activationToken)
        case .unavailable(let reason):
            throw .unavailable("\(activity.id) is unavailable: \(reason)")
        }
    }

    /// Whether `caller` may start one more job: `limitExceeded`, naming the limit, when it
    /// already runs its share or the broker runs its global maximum.
    func admit(caller: String) throws(ActivityError) {
        let running = runningByCaller[caller, default: 0]
        guard running < Self.maximumRunningPerCaller else {
            throw .limitExceeded(
                "\(caller) already has \(running) running jobs (at most \(Self.maximumRunningPerCaller) per connection); wait for one to finish")
        }
        guard runningCount < maximumRunning else {
            throw .limitExceeded(
                "the broker already runs \(runningCount) jobs (at most \(maximumRunning) across all callers); try again when one finished")
        }
    }

    // MARK: Jobs

    /// Creates, counts and exports a job in `state` (`running`, or `choosing` for `Share`),
    /// and arms its timeout, which covers the whole job from now on. Call `admit` first.
    func create(caller: String, activityID: ActivityID?, state: JobState, timeout: UInt32) -> Job {
        connection.assertOnLoop()
        let job = Job(number: nextNumber, token: Job.randomToken(), activityID: activityID, caller: caller, state: state)
        nextNumber += 1
        do {
            try connection.export(job.path, interfaces: [jobInterface(job)], listed: false)
        } catch {
            preconditionFailure("job paths are unique: \(error)")
        }
        jobs[job.number] = job
        runningByCaller[caller, default: 0] += 1
        runningCount += 1
        armTimeout(job, seconds: timeout)
        return job
    }

    /// A `choosing` job's activity was chosen: it is `running` from now on (announced to its
    /// caller), then dispatched like `Perform`, within what is left of its timeout.
    func run(_ job: Job, chosen activity: Activity, plan: DispatchPlan) {
        connection.assertOnLoop()
        job.chose(activity.id)
        announceState(of: job, names: [Job1.state.name.rawValue, Job1.activityID.name.rawValue])
        log.event("job \(job.number): \(activity.id) chosen and started (by \(job.caller))")
        start(job, plan: plan)
    }

    /// Cancels every job not yet ended (shutdown): their callers get `Finished(cancelled)`.
    func cancelAll() {
        for job in jobs.values.sorted(by: { $0.number < $1.number }) where !job.state.isFinal { cancel(job) }
    }

    /// Stops what the job waits for and ends it `cancelled`.
    func cancel(_ job: Job) {
        job.running?.cancel()
        finish(job, .cancelled)
    }

    private func armTimeout(_ job: Job, seconds: UInt32) {
        let timer = DispatchSource.makeTimerSource(queue: connection.queue)
        timer.schedule(deadline: .now() + .seconds(Int(seconds)))
        job.deadline = ContinuousClock.now + .seconds(Int(seconds))
        timer.setEventHandler { [unowned self] in
            let what =
                job.state == .choosing
                ? "no activity was chosen within \(seconds) seconds"
                : "\(job.subject) did not finish within \(seconds) seconds"
            job.running?.cancel()
            finish(job, .failed(.timeout(what)))
        }
        job.timeoutTimer = timer
        timer.resume()
    }

    private func start(_ job: Job, plan: DispatchPlan) {
        guard job.state == .running else { return }
        // What is left of the job's timeout (a Share job spent some of it choosing).
        let left = job.deadline.map { ContinuousClock.now.duration(to: $0).components.seconds } ?? 0
        let timeout = UInt32(clamping: max(1, left + 1))
        job.running = dispatcher.start(plan, timeout: timeout) { [unowned self] outcome in
            finish(job, outcome)
        }
    }

    /// Ends the job once: state, its `whenFinished`, the unicast `PropertiesChanged` and
    /// `Finished`, the usage count when it completed, the log line, and removal after the
    /// afterlife.
    func finish(_ job: Job, _ outcome: JobOutcome) {
        guard job.end(outcome.state) else { return }
        runningByCaller[job.caller, default: 1] -= 1
        if runningByCaller[job.caller] == 0 { runningByCaller[job.caller] = nil }
        runningCount -= 1
        for subscription in job.subscriptions { connection.cancel(subscription) }
        job.subscriptions.removeAll()
        let whenFinished = job.whenFinished
        job.whenFinished = nil
        whenFinished?(outcome)
        announceState(of: job, names: [Job1.state.name.rawValue])
        var results = outcome.results
        if job.reportsActivityID, let id = job.activityID { results[ResultKey.activityID] = .string(id.rawValue) }
        do {
            try connection.emit(
                Signal(
                    path: job.path, interface: Job1.interface, member: Job1.finished.name,
                    body: [.string(outcome.state.rawValue), .vardict(results)],
                    destination: try BusName(job.caller)))
        } catch {
            log.event("job \(job.number): could not send Finished: \(error)")
        }
        if outcome.state == .completed, let id = job.activityID { completed(id, job.caller) }
        let errorName = outcome.results[ResultKey.error]?.string.map { " (\($0))" } ?? ""
        log.event("job \(job.number): \(job.subject) \(outcome.state.rawValue)\(errorName)")

        let connection = connection
        connection.queue.asyncAfter(deadline: .now() + .nanoseconds(Int(afterlife.nanoseconds))) { [weak self] in
            self?.jobs[job.number] = nil
            connection.unexport(job.path)
        }
    }

    /// `PropertiesChanged` for `names`, to the job's caller alone.
    private func announceState(of job: Job, names: [String]) {
        guard let caller = try? BusName(job.caller) else { return }
        connection.emitPropertiesChanged(path: job.path, interface: Job1.interface, names: names, destination: caller)
    }

    private func jobInterface(_ job: Job) -> Interface {
        Interface(
            Job1.interface,
            methods: [
                Job1.cancel.method(
                    .immediate { [unowned self] call in
                        guard call.sender == job.caller else {
                            throw ActivityError.accessDenied("only the connection that started job \(job.number) may cancel it")
                        }
                        if !job.state.isFinal {
                            log.event("job \(job.number): cancel requested by its caller")
                            cancel(job)
                        }
                        return []
                    })
            ],
            properties: [
                Job1.activityID.property { .string(job.activityID?.rawValue ?? "") },
                Job1.state.property { .string(job.state.rawValue) },
            ],
            signals: [Job1.finished],
            propertyAccess: { sender in
                guard sender == job.caller else {
                    throw ActivityError.accessDenied("only the connection that started this job may read its properties")
                }
            })
    }
}

extension Duration {
    /// Whole nanoseconds, for Dispatch deadlines.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
