// The broker's composition root: builds the features on one connection's loop, exports them, owns the name.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Dispatch
import Glibc
import SystemSupport

/// The `org.activitybroker.Broker1` service.
///
/// Only wiring: the features (`Offers`, `Registrations`, `JobTable`, `ShareRequests`,
/// `BrowsingSessions`) share `ActivityState` and get everything else they use as explicit
/// inputs. Ownership: all of it is read and written on `connection.queue` only (the loop);
/// D-Bus handlers, child-exit callbacks, timers and watchers all run there, so the domain
/// needs no locks. `@unchecked Sendable` rests on that.
///
/// It never ends the process: when it stops serving on its own (the name taken over, the bus
/// gone) it tells the `whenStopped` handler of `start`, and `main` decides.
public final class Broker: @unchecked Sendable {
    public static let version = ProjectVersion.current

    /// Why a started broker stopped serving without being asked to.
    public enum Stop: Sendable {
        /// Another broker took the name over (`--replace`); running jobs ended, usage written.
        case nameLost
        /// The connection to the bus is gone; running jobs ended, usage written.
        case disconnected
    }

    private let connection: Connection
    private let configuration: BrokerConfiguration
    private let log: BrokerLog
    private let machine: MachineEnvironment
    private let usage: UsageStore
    private let activities: ActivityState
    private let offers: Offers
    private let registrations: Registrations
    private let announcer: ChangeAnnouncer
    private let catalog: StaticCatalog
    private let jobs: JobTable
    private let shares: ShareRequests
    private let sessions: BrowsingSessions
    private let prewarmer: Prewarmer
    private let attributions: Attributions

    /// Connects to the bus and builds the service; `start()` exports it and takes the name.
    public init(configuration: BrokerConfiguration, clock base: @escaping @Sendable () -> Timestamp = { Timestamp.now() }) throws {
        let offset = configuration.clockOffset
        let clock: @Sendable () -> Timestamp = { base().adding(seconds: offset) }
        let log = BrokerLog(verbose: configuration.verbose)
        let connection = try Connection(bus: configuration.bus)
        let paths = XDGPaths(environment: configuration.environment)
        let machine = MachineEnvironment(
            connection: connection, environment: configuration.environment,
            activatableRefreshInterval: configuration.activatableRefreshInterval,
            queryTimeout: configuration.busQueryTimeout)
        let usage = UsageStore(path: paths.usageFile, queue: connection.queue, log: log)
        let activities = ActivityState(machine: machine, queue: connection.queue, log: log)
        self.configuration = configuration
        self.log = log
        self.connection = connection
        self.machine = machine
        self.usage = usage
        self.activities = activities
        let offers = Offers(
            activities: activities, scores: { usage.scores }, clock: clock,
            defaultLocale: configuration.defaultLocale, queue: connection.queue)
        self.offers = offers
        registrations = Registrations(activities: activities, connection: connection, log: log)
        announcer = ChangeAnnouncer(connection: connection)
        prewarmer = Prewarmer(log: log)
        let attributions = Attributions(
            settings: AttributionSettings(paths: paths), queue: connection.queue, log: log, clock: clock,
            sender: AttributionReportSender(
                trustedCAFile: configuration.attributionCAFile, connectTo: configuration.attributionConnectTo))
        self.attributions = attributions
        (catalog, jobs, shares, sessions) = connection.queue.sync {
            let catalog = StaticCatalog(
                paths: paths, environment: configuration.environment,
                builtinDirectories: configuration.extensionDirectories,
                machine: machine, queue: connection.queue, log: log)
            let dispatcher = Dispatcher(
                connection: connection, opener: configuration.opener, environment: configuration.environment,
                log: log)
            let jobs = JobTable(
                connection: connection, activities: activities, dispatcher: dispatcher, log: log,
                afterlife: configuration.jobAfterlife, maximumRunning: configuration.maximumRunningJobs,
                completed: { id, caller in
                    // API.md §5: no client can add uses; each completed job counts, except a
                    // provider performing its own `others` activity (self-promotion in everyone
                    // else's lists) or one already gone. Its `owner` activities only it can
                    // perform: their ranking, in its own lists and sheets, is its own uses.
                    guard let activity = activities.registry.activity(id),
                        activity.owner != caller || activity.visibility == .owner
                    else { return }
                    usage.recordUse(of: id, at: clock())
                })
            let sessions = BrowsingSessions(
                connection: connection, browser: BrowserClient(connection: connection, log: log), machine: machine,
                environment: configuration.environment, log: log, attributions: attributions,
                gestureWindow: configuration.gestureWindow)
            let shares = ShareRequests(
                connection: connection, offers: offers, activities: activities, jobs: jobs,
                sheet: SheetClient(connection: connection, log: log), sessions: sessions, machine: machine,
                environment: configuration.environment, log: log)
            return (catalog, jobs, shares, sessions)
        }
    }

    /// Exports the objects, loads manifests and usage, learns the bus names, then requests
    /// `org.activitybroker.Broker1`. Throws when the name is owned by another broker and
    /// `--replace` was not given. `whenStopped` runs once if the broker later stops serving on
    /// its own (off the loop for `nameLost`, on it for `disconnected`).
    public func start(whenStopped: @escaping @Sendable (Stop) -> Void) async throws {
        try connection.queue.sync {
            try connection.export(
                Broker1.objectPath,
                interfaces: [
                    BrokerInterface.make(
                        offers: offers, registrations: registrations, jobs: jobs, shares: shares,
                        sessions: sessions, prewarmer: prewarmer, activities: activities, usage: usage,
                        attributions: attributions,
                        terminalTriggers: AttributionTerminalTriggers(
                            connection: connection, attributions: attributions, caller: .besideBroker(), log: log,
                            queryTimeout: configuration.busQueryTimeout),
                        log: log)
                ])
            usage.load()
            attributions.start()
            sessions.start()
            activities.onChange = { [unowned self] change in
                switch change {
                case .activities:
                    offers.invalidate(records: true)
                    announcer.announce()
                case .registration(let versions):
                    offers.invalidate(changed: versions)
                    announcer.announce()
                case .availability:
                    offers.invalidate(records: false)
                }
            }
            catalog.onChange = { [unowned self] layers, schemeDefaults in
                activities.setStatic(layers, schemeDefaults: schemeDefaults)
            }
            catalog.start()
            machine.onChange = { [unowned self] change in activities.machineChanged(change) }
        }
        await machine.start()
        connection.onNameLost { [self] name in
            log.event("lost the name \(name.rawValue) to another broker; exiting")
            // Off the loop: shutdown() waits for it, so that running jobs end (their callers
            // get Finished, children are killed) and the connection flushes before we stop.
            DispatchQueue.global().async {
                self.shutdown()
                whenStopped(.nameLost)
            }
        }
        connection.onBacklogChange { [log] backlog in
            log.debug(
                "\(backlog.paused ? "reading paused" : "reading resumed"): \(backlog.buffered) messages buffered, "
                    + "at most \(backlog.highWater) (bound \(backlog.bound))")
        }
        connection.onDisconnect { [self] in
            // Without its bus a session service has no one to serve: end the jobs (their
            // children must not outlive us) and keep the usage, instead of lingering.
            log.event("lost the connection to the bus; exiting")
            jobs.cancelAll()
            sessions.closeAll()
            usage.flush()
            whenStopped(.disconnected)
        }
        connection.queue.sync { announcer.goLive() }
        try await requestName()
    }

    /// Requests the name (replacing its owner with `--replace`) and logs that it owns it.
    private func requestName() async throws {
        var flags: Connection.NameRequestFlags = [.allowReplacement, .doNotQueue]
        var predecessor: String?
        if configuration.replace {
            flags.insert(.replaceExisting)
            predecessor = try? await connection.call(
                MethodCall(
                    destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "GetNameOwner",
                    body: [.string(Broker1.busName.rawValue)])
            ).first?.string
        }
        let reply = try await connection.requestName(Broker1.busName, flags: flags)
        switch reply {
        case .primaryOwner, .alreadyOwner:
            let count = connection.queue.sync { activities.registry.count }
            log.event("owns \(Broker1.busName.rawValue) on \(connection.uniqueName) with \(count) activities")
            if let predecessor, predecessor != connection.uniqueName {
                connection.queue.sync { usage.expectReload() }
                // The replaced broker writes its last uses as it leaves, after we read the file.
                _ = connection.watchDisconnect(of: predecessor) { [unowned self] in
                    log.debug("the replaced broker \(predecessor) is gone; reading the usage file again")
                    usage.reloadKeepingOwnUses()
                }
            }
        case .inQueue, .exists:
            throw ActivityError.alreadyExists(
                "\(Broker1.busName.rawValue) is owned by another broker; use --replace to take it over"
            ).dbusError
        }
    }

    /// How long `shutdown` waits for the loop to end the jobs and write the usage.
    static let shutdownGrace: DispatchTimeInterval = .seconds(3)

    /// How long `shutdown` gives the jobs' children after SIGTERM before it SIGKILLs them: the
    /// same as a cancelled or timed-out job's (`Dispatcher.childGrace`).
    public static let childrenGrace = Dispatcher.childGrace

    /// Writes pending state (the usage file), ends the children and closes the connection.
    /// Called on SIGTERM, off the loop; the caller may exit as soon as it returns.
    ///
    /// Never waits on work that cannot run: the jobs are ended and the usage written on the
    /// loop, and if the loop does not get to it within `shutdownGrace` (it is stuck), the
    /// broker stops without it rather than ignore the signal. Either way, no child of a job
    /// outlives the broker: every one still running gets SIGTERM, and what is left of them
    /// after `childrenGrace` gets SIGKILL (`SpawnedProcess.endAll`), before this returns.
    public func shutdown() {
        let finished = DispatchSemaphore(value: 0)
        dispatchPrecondition(condition: .notOnQueue(connection.queue))
        connection.queue.async { [self] in
            jobs.cancelAll()
            sessions.closeAll()
            usage.flush()
            finished.signal()
        }
        let answered = finished.wait(timeout: .now() + Self.shutdownGrace) == .success
        // Off the loop, which reaps the children meanwhile (when it is not stuck).
        SpawnedProcess.endAll(grace: Self.childrenGrace)
        guard answered else {
            log.event("the loop did not answer within the shutdown grace; stopping without it")
            return
        }
        connection.close()
        log.event("stopped")
    }
}
