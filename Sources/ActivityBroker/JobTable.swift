// Creates jobs for Perform and Share, answers their Job1 objects, bounds how many run, ends each exactly once.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Dispatch
import Glibc

/// The broker's jobs by token. Loop-confined (the connection's loop, like every feature).
///
/// Its inputs are explicit: the activities to look up and check, the dispatcher that runs
/// them, and `completed`, told of each job that completed (the usage ranking counts it).
///
/// A job is its caller's business (API.md §6): its path carries a random token and is left
/// out of introspection, its properties answer only the caller (`AccessDenied` for anyone
/// else), and `PropertiesChanged` and `Finished` are unicast to the caller.
///
/// Nothing is exported per job: the table answers every path below `Job1.parentPath` from a
/// running `Job` or, during the afterlife, a `FinishedJobs` row; one `JobAlarm` serves every
/// timeout and the afterlife's end. So a `Perform` costs no table, timer or extra loop turn, and
/// what happens once `Finished` is sent (`PropertiesChanged`, the row, the usage count, the log
/// line) is off the path of the caller's wait.
final class JobTable: @unchecked Sendable {
    private let connection: Connection
    private let activities: ActivityState
    private let log: BrokerLog
    /// The afterlife in nanoseconds.
    private let afterlife: UInt64
    private let maximumRunning: Int
    /// Told of each completed job: its activity and its caller (a provider's uses of its own
    /// `others` activities do not count).
    private let completed: (ActivityID, String) -> Void
    /// Jobs not yet ended (choosing or running), across all callers.
    private var running: [JobToken: Job] = [:]
    private var finished = FinishedJobs()
    /// Each caller's running jobs plus its `Perform`s waiting for the bus (`holdPlace`).
    private var runningByCaller: [String: Int] = [:]
    /// `Perform`s waiting for the bus's activatable names, across all callers (`holdPlace`).
    private var waiting = 0
    private var nextNumber: UInt64 = 1
    private var tokens = JobToken.Source()
    private let dispatcher: Dispatcher
    private lazy var alarm = JobAlarm(queue: connection.queue) { [unowned self] in alarmFired() }

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
        self.afterlife = UInt64(max(0, afterlife.nanoseconds))
        self.maximumRunning = maximumRunning
        self.completed = completed
        do {
            try connection.exportChildren(of: Job1.parentPath) { [unowned self] path in interfaces(at: path) }
        } catch {
            preconditionFailure("one job table per connection: \(error)")
        }
    }

    // MARK: Perform

    /// `Perform`: every check happens before the job exists (API.md §3); then `reply` sends the
    /// job's path and the dispatch starts right after it, in the same turn of the loop (no hop).
    ///
    /// The reply goes first so that a caller always has its job before anything of the job
    /// happens: were the broker to die after calling a provider but before replying, the caller
    /// would get an error for `Perform` (no job) while the provider has the call, instead of its
    /// job's end ("the broker left; the result is unknown"). The provider's call sent first
    /// would save a routing on the way to `Finished` (BENCHMARKS.md, issue 14's fifth round),
    /// but the two writes are two syscalls: a broker preempted between them and then killed
    /// broke that promise in CI (`ActivityBrokerClientTests.performFailsWhenTheBrokerDiesMidJob`).
    func perform(
        id: String, items rawItems: [String: Value], options rawOptions: [String: Value], caller: String,
        reply: (ObjectPath) -> Void
    ) throws(ActivityError) {
        connection.assertOnLoop()
        let activity = try activities.lookUp(id, caller: caller)
        let items = try ItemsDecoder.decode(rawItems)
        let options = try OptionSchema.perform.validate(rawOptions)
        let timeout = try Self.timeout(options, method: Broker1.perform.name.rawValue)
        let plan = try prepare(activity, items: items, activationToken: options[OptionKey.activationToken]?.string)
        try admit(caller: caller)
        let job = create(caller: caller, activityID: activity.id, state: .running, timeout: timeout)
        reply(job.path)
        start(job, plan: plan)
        log.frequentEvent("job \(job.number): \(activity.id) started (by \(caller))")
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
        // `evaluate` words its verdict: only asked when there is a refusal to explain.
        if !activity.match.matches(items.url), case .rejects(let reason) = activity.match.evaluate(items.url) {
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
    /// already runs its share or the broker runs its global maximum. `Perform`s waiting for
    /// the bus (`holdPlace`) count as running.
    func admit(caller: String) throws(ActivityError) {
        let own = runningByCaller[caller, default: 0]
        guard own < Self.maximumRunningPerCaller else {
            throw .limitExceeded(
                "\(caller) already has \(own) running jobs (at most \(Self.maximumRunningPerCaller) per connection); wait for one to finish")
        }
        guard running.count + waiting < maximumRunning else {
            throw .limitExceeded(
                "the broker already runs \(running.count + waiting) jobs (at most \(maximumRunning) across all callers); try again when one finished")
        }
    }

    /// Holds a place among `caller`'s running jobs (and the broker's) for a `Perform` that
    /// waits for the bus before it is checked (`MachineEnvironment.refreshBeforeRefusing`), or
    /// throws `limitExceeded` as `admit` does. Without it nothing bounded how many calls wait,
    /// each keeping its items; with it, waiting is bounded as running is. Give it back with
    /// `releasePlace` before `perform`, which admits the job again.
    func holdPlace(for caller: String) throws(ActivityError) {
        connection.assertOnLoop()
        try admit(caller: caller)
        runningByCaller[caller, default: 0] += 1
        waiting += 1
    }

    /// Gives back a place taken by `holdPlace`.
    func releasePlace(of caller: String) {
        connection.assertOnLoop()
        precondition(waiting > 0 && runningByCaller[caller, default: 0] > 0, "a place released that was not held")
        waiting -= 1
        runningByCaller[caller, default: 1] -= 1
        if runningByCaller[caller] == 0 { runningByCaller[caller] = nil }
    }

    // MARK: Jobs

    /// Creates and counts a job in `state` (`running`, or `choosing` for `Share`); its timeout
    /// covers the whole job from now on. Its path answers from now on. Call `admit` first.
    func create(caller: String, activityID: ActivityID?, state: JobState, timeout: UInt32) -> Job {
        connection.assertOnLoop()
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout) * 1_000_000_000
        let job = Job(
            number: nextNumber, token: tokens.token(), activityID: activityID, caller: caller, state: state,
            timeout: timeout, deadline: deadline)
        nextNumber += 1
        running[job.token] = job
        runningByCaller[caller, default: 0] += 1
        alarm.arm(at: deadline)
        return job
    }

    /// A `choosing` job's activity was chosen: it is `running` from now on (announced to its
    /// caller), then dispatched like `Perform`, within what is left of its timeout.
    func run(_ job: Job, chosen activity: Activity, plan: DispatchPlan) {
        connection.assertOnLoop()
        job.chose(activity.id)
        if let caller = job.destination {
            connection.emitPropertiesChanged(
                path: job.path, interface: Job1.interface,
                values: [
                    Job1.state.name.rawValue: .string(job.state.rawValue),
                    Job1.activityID.name.rawValue: .string(activity.id.rawValue),
                ], destination: caller)
        }
        log.frequentEvent("job \(job.number): \(activity.id) chosen and started (by \(job.caller))")
        start(job, plan: plan)
    }

    /// Cancels every job not yet ended (shutdown): their callers get `Finished(cancelled)`.
    func cancelAll() {
        for job in running.values.sorted(by: { $0.number < $1.number }) { cancel(job) }
    }

    /// Stops what the job waits for and ends it `cancelled`.
    func cancel(_ job: Job) {
        job.running?.cancel()
        finish(job, .cancelled)
    }

    private func start(_ job: Job, plan: DispatchPlan) {
        guard job.state == .running else { return }
        job.running = dispatcher.start(plan, deadline: job.deadline) { [unowned self] outcome in
            finish(job, outcome)
        }
    }

    /// Ends the job once: state, its `whenFinished`, then the unicast `Finished`; then, with the
    /// caller already told, `PropertiesChanged(State)`, its row for the afterlife, the usage
    /// count when it completed and the log line.
    ///
    /// `Finished` goes first (docs/dbus-api.md, Job1): it is what the caller waits for, and the
    /// bus routes our messages one after the other, so the property change sent before it was a
    /// whole routing on the path of every `Perform`. `State` reads the final state from the
    /// moment `Finished` is sent, so a caller that reads it then is never told `running`.
    func finish(_ job: Job, _ outcome: JobOutcome) {
        guard job.end(outcome.state) else { return }
        running[job.token] = nil
        runningByCaller[job.caller, default: 1] -= 1
        if runningByCaller[job.caller] == 0 { runningByCaller[job.caller] = nil }
        for subscription in job.subscriptions { connection.cancel(subscription) }
        job.subscriptions.removeAll()
        let whenFinished = job.whenFinished
        job.whenFinished = nil
        whenFinished?(outcome)
        if let caller = job.destination {
            var results = outcome.results
            if job.reportsActivityID, let id = job.activityID { results[ResultKey.activityID] = .string(id.rawValue) }
            do {
                try connection.emit(
                    Job1.finished.signal(
                        at: job.path, [.string(outcome.state.rawValue), .vardict(results)], to: caller))
            } catch {
                log.event("job \(job.number): could not send Finished: \(error)")
            }
            connection.emitPropertiesChanged(
                path: job.path, interface: Job1.interface, values: [Job1.state.name.rawValue: .string(outcome.state.rawValue)],
                destination: caller)
        }

        let expiry = DispatchTime.now().uptimeNanoseconds + afterlife
        finished.insert(
            job.token, FinishedJobs.Row(state: outcome.state, activityID: job.activityID, caller: job.caller, expiry: expiry))
        alarm.arm(at: expiry)
        if outcome.state == .completed, let id = job.activityID { completed(id, job.caller) }
        let errorName = outcome.results[ResultKey.error]?.string.map { " (\($0))" } ?? ""
        log.frequentEvent("job \(job.number): \(job.subject) \(outcome.state.rawValue)\(errorName)")
    }

    /// Ends the jobs whose timeout is up, forgets the finished ones whose afterlife is over, and
    /// sets the alarm for the next of either.
    private func alarmFired() {
        let now = DispatchTime.now().uptimeNanoseconds
        for job in running.values.filter({ $0.deadline <= now }).sorted(by: { $0.number < $1.number }) {
            let what =
                job.state == .choosing
                ? "no activity was chosen within \(job.timeout) seconds"
                : "\(job.subject) did not finish within \(job.timeout) seconds"
            job.running?.cancel()
            finish(job, .failed(.timeout(what)))
        }
        if let next = finished.sweep(at: now) { alarm.arm(at: next) }
        if let next = running.values.lazy.map(\.deadline).min() { alarm.arm(at: next) }
    }

    // MARK: Job1 objects

    /// The `Job1` interface at `path`: a running job's, or a finished one's within its afterlife.
    private func interfaces(at path: ObjectPath) -> [Interface]? {
        guard let token = JobToken(path: path) else { return nil }
        if let job = running[token] {
            return [
                Self.jobInterface(caller: job.caller, state: job.state, activityID: job.activityID) { [unowned self] in
                    guard !job.state.isFinal else { return }
                    log.event("job \(job.number): cancel requested by its caller")
                    cancel(job)
                }
            ]
        }
        guard let row = finished.row(token, at: DispatchTime.now().uptimeNanoseconds) else { return nil }
        // Cancel after the end changes nothing (exactly one Finished), but still only for the caller.
        return [Self.jobInterface(caller: row.caller, state: row.state, activityID: row.activityID) {}]
    }

    /// A job's table as it stands now (built for the call that asks): `Cancel`, `ActivityId` and
    /// `State`, all for `caller` alone.
    private static func jobInterface(
        caller: String, state: JobState, activityID: ActivityID?, cancel: @escaping @Sendable () -> Void
    ) -> Interface {
        Interface(
            Job1.interface,
            methods: [
                Job1.cancel.method(
                    .immediate { call in
                        guard call.sender == caller else {
                            throw ActivityError.accessDenied("only the connection that started this job may cancel it")
                        }
                        cancel()
                        return []
                    })
            ],
            properties: [
                Job1.activityID.property { .string(activityID?.rawValue ?? "") },
                Job1.state.property { .string(state.rawValue) },
            ],
            signals: [Job1.finished.spec],
            propertyAccess: { sender in
                guard sender == caller else {
                    throw ActivityError.accessDenied("only the connection that started this job may read its properties")
                }
            })
    }
}
