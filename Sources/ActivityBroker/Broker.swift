// The broker: all service state, owned by its connection's loop.
import ActivityKit
import DBus
import Foundation

/// The `org.activitybroker.Broker1` service.
///
/// Ownership: every stored property is read and written on `connection.queue` only (the
/// loop); D-Bus handlers, child-exit callbacks, timers and watchers all run there, so the
/// domain needs no locks. `@unchecked Sendable` rests on that invariant, checked with
/// `connection.assertOnLoop()` at the entry points.
public final class Broker: @unchecked Sendable {
    public static let busName: BusName = "org.activitybroker.Broker1"
    public static let objectPath: ObjectPath = "/org/activitybroker/Broker1"
    public static let interfaceName: InterfaceName = "org.activitybroker.Broker1"
    public static let version = "1.0.0"

    let connection: Connection
    let configuration: BrokerConfiguration
    let log: BrokerLog
    let clock: @Sendable () -> Date
    let defaultLocale: String?

    var registry = Registry()
    let machine: MachineEnvironment
    let usage: UsageStore
    var catalog: StaticCatalog!
    var jobs: JobTable!
    /// Disconnect watches of connections that registered activities, by unique name.
    var ownerWatches: [String: Subscription] = [:]
    /// The desktop activity of the default web browser, which "Open in Browser" is named
    /// after; `ListActivities` offers only one of the two (see `withoutDuplicateBrowser`).
    var defaultBrowser: ActivityID?
    /// Availability per activity, valid until the registry or the machine changes.
    var availabilityCache: [ActivityID: Availability] = [:]
    /// `ListActivities` records by locale ("" for none), valid until the registry changes.
    var offeredRecords: [String: [ActivityID: Value]] = [:]
    /// Ranked `ListActivities` answers by URL scheme, host, path and locale, valid until the
    /// registry or the machine changes (and checked against the usage scores on use).
    var offeredLists: [OfferedList.Key: OfferedList] = [:]
    private var changeSignalScheduled = false

    /// Connects to the bus and builds the service; `start()` exports it and takes the name.
    public init(configuration: BrokerConfiguration, clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.configuration = configuration
        self.log = BrokerLog(verbose: configuration.verbose)
        self.clock = clock
        self.connection = try Connection(bus: configuration.bus)
        let paths = XDGPaths(environment: configuration.environment)
        self.defaultLocale = Self.locale(from: configuration.environment)
        self.machine = MachineEnvironment(connection: connection, environment: configuration.environment)
        self.usage = UsageStore(path: paths.usageFile, queue: connection.queue, log: log)
        connection.queue.sync {
            self.catalog = StaticCatalog(
                paths: paths, environment: configuration.environment,
                builtinDirectories: configuration.extensionDirectories,
                machine: machine, queue: connection.queue, log: log)
            self.jobs = JobTable(broker: self)
        }
    }

    /// Exports the objects, loads manifests and usage, learns the bus names, then requests
    /// `org.activitybroker.Broker1`. Throws when the name is owned by another broker and
    /// `--replace` was not given.
    public func start() async throws {
        try connection.queue.sync {
            try connection.export(Self.objectPath, interfaces: [BrokerInterface.make(self)])
            usage.load()
            catalog.onChange = { [unowned self] layers, browser in
                defaultBrowser = browser
                staticLayersChanged(layers)
            }
            catalog.start()
            machine.onChange = { [unowned self] in self.machineChanged() }
        }
        await machine.start()
        connection.onNameLost { [self] name in
            log.event("lost the name \(name.rawValue) to another broker; exiting")
            // Off the loop: shutdown() waits for it, so that running jobs end (their callers
            // get Finished, children are killed) and the connection flushes before we exit.
            DispatchQueue.global().async {
                self.shutdown()
                exit(0)
            }
        }
        connection.onDisconnect { [self] in
            // Without its bus a session service has no one to serve: end the jobs (their
            // children must not outlive us), keep the usage, and exit instead of lingering.
            log.event("lost the connection to the bus; exiting")
            jobs.cancelAll()
            usage.flush()
            exit(0)
        }
        var flags: Connection.NameRequestFlags = [.allowReplacement, .doNotQueue]
        var predecessor: String?
        if configuration.replace {
            flags.insert(.replaceExisting)
            predecessor = try? await connection.call(
                MethodCall(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                    interface: "org.freedesktop.DBus", member: "GetNameOwner",
                    body: [.string(Self.busName.rawValue)])
            ).first?.string
        }
        let reply = try await connection.requestName(Self.busName, flags: flags)
        switch reply {
        case .primaryOwner, .alreadyOwner:
            let count = connection.queue.sync { registry.count }
            log.event("owns \(Self.busName.rawValue) on \(connection.uniqueName) with \(count) activities")
            if let predecessor, predecessor != connection.uniqueName {
                connection.queue.sync { usage.expectReload() }
                // The replaced broker writes its last uses as it leaves, after we read the file.
                _ = connection.watchDisconnect(of: predecessor) { [unowned self] in
                    log.debug("the replaced broker \(predecessor) is gone; reading the usage file again")
                    usage.reloadKeepingOwnUses()
                }
            }
        case .inQueue, .exists:
            throw DBusError(
                name: brokerErrorPrefix + "AlreadyExists",
                message: "\(Self.busName.rawValue) is owned by another broker; use --replace to take it over")
        }
    }

    /// Writes pending state (the usage file) and closes the connection. Called on SIGTERM.
    public func shutdown() {
        connection.queue.sync {
            jobs.cancelAll()
            usage.flush()
        }
        connection.close()
        log.event("stopped")
    }

    // MARK: - Change notification

    /// Tells subscribers the set of activities changed. Coalesced per loop turn, so a burst
    /// of registrations sends one `ActivitiesChanged` and one `PropertiesChanged`.
    func activitiesChanged() {
        connection.assertOnLoop()
        availabilityCache.removeAll(keepingCapacity: true)
        offeredRecords.removeAll()
        offeredLists.removeAll()
        guard !changeSignalScheduled else { return }
        changeSignalScheduled = true
        connection.queue.async { [self] in
            changeSignalScheduled = false
            try? connection.emit(
                Signal(
                    path: Self.objectPath, interface: Self.interfaceName, member: "ActivitiesChanged",
                    body: [], destination: nil))
            connection.emitPropertiesChanged(
                path: Self.objectPath, interface: Self.interfaceName, names: ["ActivityCount"])
        }
    }

    private func staticLayersChanged(_ layers: [StaticLayer]) {
        registry.setStaticLayers(layers)
        log.debug("static activities reloaded: \(registry.count) activities in all")
        activitiesChanged()
    }

    /// A program appeared on PATH or a bus name changed owner. Clients hear `ActivitiesChanged`
    /// only when an activity they could have been offered came or went with it, not on every
    /// unrelated name change on the bus.
    private func machineChanged() {
        let before = availabilityCache
        availabilityCache.removeAll(keepingCapacity: true)
        offeredLists.removeAll()
        let flipped = before.contains { id, old in
            guard let activity = registry.activity(id) else { return false }
            return availability(of: activity).isAvailable != old.isAvailable
        }
        if flipped {
            log.debug("the machine changed what is available")
            activitiesChanged()
        }
    }

    /// Whether an activity's requirements hold, cached until the registry or machine changes.
    func availability(of activity: Activity) -> Availability {
        if let cached = availabilityCache[activity.id] { return cached }
        let availability = activity.availability(in: machine)
        availabilityCache[activity.id] = availability
        return availability
    }

    /// The locale for names when a caller gives none: LC_ALL, then LC_MESSAGES, then LANG.
    static func locale(from environment: [String: String]) -> String? {
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[key], !value.isEmpty, value != "C", value != "POSIX" { return value }
        }
        return nil
    }
}
