// Serves org.activitybroker.Provider1 from closures and keeps the activities registered.
import ActivityBrokerInterface
import ActivityKit
import DBus
import Locking

/// An activity an app offers, with the closure that performs it.
public struct ProvidedActivity: Sendable {
    /// `RegisterActivity`'s `visibility` (API.md §3).
    public enum Visibility: String, Sendable, Hashable {
        /// Offered to every other connection, not back to the app itself.
        case others
        /// Offered to the app alone; other connections never see it.
        case owner
    }

    /// What a handler receives: the shared items and the caller's activation token.
    public struct Request: Sendable {
        public var items: SharedItems
        public var activationToken: String?
    }

    public var id: String
    public var name: String
    /// Localized names: locale (`de`, `de_DE`) → name.
    public var names: [String: String]
    public var icon: String
    /// `share` or `action`.
    public var category: String
    /// URL schemes (default http, https), host globs (default any), path prefixes (default any).
    public var schemes: [String]?
    public var hosts: [String]?
    public var pathPrefixes: [String]?
    /// Who it is offered to: everyone but this app (`others`, the default) or this app
    /// alone (`owner`: its own services in its own share sheets and lists).
    public var visibility: Visibility
    /// Breaks ties in the ranking, higher first (API.md §5): the user's own use ranks first.
    public var priority: Int32
    public var handler: @Sendable (Request) async throws -> ActivityOutcome

    public init(
        id: String, name: String, names: [String: String] = [:], icon: String = "",
        category: String = "action",
        schemes: [String]? = nil, hosts: [String]? = nil, pathPrefixes: [String]? = nil,
        visibility: Visibility = .others, priority: Int32 = 0,
        handler: @escaping @Sendable (Request) async throws -> ActivityOutcome
    ) {
        self.id = id
        self.name = name
        self.names = names
        self.icon = icon
        self.category = category
        self.schemes = schemes
        self.hosts = hosts
        self.pathPrefixes = pathPrefixes
        self.visibility = visibility
        self.priority = priority
        self.handler = handler
    }

    func registration(objectPath: ObjectPath) -> [String: Value] {
        var match: [String: Value] = [:]
        if let schemes { match[RegistrationKey.schemes] = .stringArray(schemes) }
        if let hosts { match[RegistrationKey.hosts] = .stringArray(hosts) }
        if let pathPrefixes { match[RegistrationKey.pathPrefixes] = .stringArray(pathPrefixes) }
        var record: [String: Value] = [
            RegistrationKey.id: .string(id), RegistrationKey.name: .string(name),
            RegistrationKey.icon: .string(icon),
            RegistrationKey.category: .string(category), RegistrationKey.match: .vardict(match),
            RegistrationKey.objectPath: .objectPath(objectPath),
        ]
        // Sent only when not the default, so that an `others` activity still registers with
        // a broker older than the key (unknown keys are InvalidArgument there).
        if visibility != .others { record[RegistrationKey.visibility] = .string(visibility.rawValue) }
        if priority != 0 { record[RegistrationKey.priority] = .int32(priority) }
        if !names.isEmpty { record[RegistrationKey.names] = .stringDict(names) }
        return record
    }
}

/// Exports `org.activitybroker.Provider1` on an app's connection and registers its
/// activities with the broker — again by itself whenever the broker (re)appears on the bus.
///
/// Loop-confined state; the public methods may be called from any thread. Handlers run in
/// their own tasks, so a slow handler never holds up the connection. `close()` (or the
/// connection closing) unregisters everything. A provider released without `close()` does
/// the same on its way out (`deinit`): it stops answering at its path — a `Perform` that comes
/// meanwhile gets `org.freedesktop.DBus.Error.UnknownObject` — and unregisters its activities.
public final class ActivityProvider: @unchecked Sendable {
    public static let interface = Provider1.interface
    public let connection: Connection
    public let objectPath: ObjectPath
    private var activities: [String: ProvidedActivity] = [:]
    private var ownerWatch: Subscription?
    private var brokerOwner: String?
    /// Set while the object is exported at `objectPath` (from `start` until `close`), so that
    /// `deinit` leaves alone an object another provider exported at that path after `close`.
    private var isExported = false
    /// Set once the first registration round ended, on the loop in the round's completion; later
    /// rounds follow the broker's owner.
    private var firstRoundDone = false
    /// The brokers (unique names) the owner watch reported while the first round ran: more than
    /// one means the name changed hands during it, and the round's calls may have reached a
    /// broker that is gone, so the round is run again.
    private var ownersDuringFirstRound: Set<String> = []
    /// `onRegistration`'s storage: set from any thread, read on the loop.
    private let registrationHandler = Locked<(@Sendable ([String: BrokerError]) -> Void)?>(nil)

    /// Called on the loop after each registration round with the errors, if any (for logs).
    /// May be set from any thread; a round that has begun calls the handler it finds when it ends.
    public var onRegistration: (@Sendable ([String: BrokerError]) -> Void)? {
        get { registrationHandler.value }
        set { registrationHandler.value = newValue }
    }

    public init(connection: Connection, objectPath: ObjectPath = "/org/activitybroker/Provider") {
        self.connection = connection
        self.objectPath = objectPath
    }

    /// An app that drops its provider without `close()`: the connection must not keep serving
    /// (and calling into) an object that is gone, nor the broker offering its activities.
    /// Nothing else can reach this instance now, so its loop-confined state is read here.
    deinit {
        guard isExported else { return }
        connection.unexport(objectPath)
        // Registered (`start(register: true)`) and not closed: the watch is there.
        guard let ownerWatch else { return }
        connection.cancel(ownerWatch)
        for id in activities.keys {
            let call = Broker1.call(Broker1.unregisterActivity, [.string(id)])
            connection.call(call, timeout: .seconds(5), autoStart: false) { _ in }
        }
    }

    /// Exports the provider object, registers `activities` and keeps them registered.
    /// Throws the first registration error (e.g. `alreadyExists`) of the initial round (of
    /// its last run, when the broker's name changed hands during it and it ran again).
    /// With `register: false` it only serves them: for a provider that a manifest's
    /// `perform.dbus` names, which the broker starts by D-Bus activation.
    public func start(_ activities: [ProvidedActivity], register: Bool = true) async throws(BrokerError) {
        do {
            try connection.queue.sync {
                for activity in activities { self.activities[activity.id] = activity }
                try connection.export(objectPath, interfaces: [providerInterface()])
                isExported = true
            }
        } catch let error as DBusError {
            throw .other(name: error.name, message: error.message)
        } catch {
            throw .other(name: DBusError.failedName, message: "\(error)")
        }
        guard register else { return }
        // Watch first, so that a broker restarting during the first round is not missed.
        connection.queue.sync {
            ownerWatch = connection.watchNameOwner(Broker1.busName) { [weak self] owner in
                guard let self else { return }
                defer { brokerOwner = owner }
                guard let owner else { return }
                if !firstRoundDone {
                    // The first round answers for this broker, unless the name changes hands
                    // before it ends (`registerAll` looks).
                    ownersDuringFirstRound.insert(owner)
                } else if owner != brokerOwner {
                    // A new broker instance knows nothing of us: register again, right here on
                    // the loop (no task hop: a busy cooperative pool must not delay it).
                    sendRegistrations { [weak self] errors in self?.registrationHandler.value?(errors) }
                }
            }
        }
        let errors = await registerAll()
        if let first = errors.sorted(by: { $0.key < $1.key }).first { throw first.value }
    }

    /// Unregisters every activity and stops serving.
    public func close() async {
        let ids = connection.queue.sync { () -> [String] in
            if let ownerWatch { connection.cancel(ownerWatch) }
            ownerWatch = nil
            connection.unexport(objectPath)
            isExported = false
            defer { activities.removeAll() }
            return Array(activities.keys)
        }
        for id in ids {
            let call = Broker1.call(Broker1.unregisterActivity, [.string(id)])
            _ = try? await connection.call(call, timeout: .seconds(5), autoStart: false)
        }
    }

    /// The first registration round: registers every activity and returns the errors by
    /// activity id. When the broker's name changed hands while the round ran, the round runs
    /// again (its calls may have gone to the broker that left) and the last round's errors count.
    /// `firstRoundDone` is set on the loop in the completion of the round that counts, so that
    /// from then on the owner watch registers with each new broker itself.
    private func registerAll() async -> [String: BrokerError] {
        await withCheckedContinuation { continuation in
            connection.queue.async { [self] in
                func round() {
                    ownersDuringFirstRound = brokerOwner.map { [$0] } ?? []
                    sendRegistrations { [self] errors in
                        registrationHandler.value?(errors)
                        if ownersDuringFirstRound.count > 1 { return round() }
                        firstRoundDone = true
                        ownersDuringFirstRound = []
                        continuation.resume(returning: errors)
                    }
                }
                round()
            }
        }
    }

    /// Sends `RegisterActivity` for every activity at once; `completion` runs on the loop with
    /// the errors by activity id when every reply is in. On the loop.
    private func sendRegistrations(completion: @escaping ([String: BrokerError]) -> Void) {
        connection.assertOnLoop()
        let records = activities.values.map { $0.registration(objectPath: objectPath) }
        guard !records.isEmpty else { return completion([:]) }
        var errors: [String: BrokerError] = [:]
        var waiting = records.count
        for record in records {
            let id = record[RegistrationKey.id]?.string ?? ""
            let call = Broker1.call(Broker1.registerActivity, [.vardict(record)])
            _ = connection.call(call, timeout: .seconds(25), autoStart: true) { result in
                if case .failure(let error) = result { errors[id] = BrokerError(error, address: "the bus") }
                waiting -= 1
                if waiting == 0 { completion(errors) }
            }
        }
    }

    private func providerInterface() -> Interface {
        Interface(
            Provider1.interface,
            methods: [
                Provider1.perform.method(
                    .deferred { [weak self] call, responder in
                        // Released without `close()`: `deinit` unexports the object, but a call
                        // read before that still comes here.
                        guard let self else {
                            throw DBusError.unknownObject("no activity provider at \(call.path) any more")
                        }
                        try perform(call, responder: responder)
                    })
            ])
    }

    /// Answers `Perform` only for the current owner of `org.activitybroker.Broker1`: any
    /// other program on the bus gets `AccessDenied`, so that a provider acts only on what the
    /// broker (which applies the user's choice and the manifest's rules) asks. The owner the
    /// registration watch saw is trusted at once; otherwise (a provider started by D-Bus
    /// activation without registering, or a broker that just restarted) the bus is asked.
    private func perform(_ call: MethodInvocation, responder: Responder) throws {
        if let brokerOwner, call.sender == brokerOwner {
            return try performForBroker(call, responder: responder)
        }
        connection.call(
            MethodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus",
                member: "GetNameOwner", body: [.string(Broker1.busName.rawValue)])
        ) { [weak self] result in
            let owner = (try? result.get())?.first?.string
            guard let self, let owner, owner == call.sender else {
                responder.fail(
                    ActivityError.accessDenied(
                        "only the activity broker (\(Broker1.busName.rawValue)) may call Perform"))
                return
            }
            do { try performForBroker(call, responder: responder) } catch { responder.fail(error) }
        }
    }

    private func performForBroker(_ call: MethodInvocation, responder: Responder) throws {
        let id = call.body[0].string ?? ""
        guard let activity = activities[id] else {
            throw ActivityError.notFound("this provider serves no activity '\(id)'")
        }
        guard let items = SharedItems(vardict: call.body[1].vardict ?? [:]) else {
            throw ActivityError.invalidArgument("items: '\(ItemKey.url)' is required")
        }
        let request = ProvidedActivity.Request(
            items: items, activationToken: call.body[2].vardict?[OptionKey.activationToken]?.string)
        let handler = activity.handler
        Task {
            do {
                let outcome = try await handler(request)
                responder.reply([.string(outcome.state.rawValue), .vardict(outcome.resultValues)])
            } catch {
                let failure = ActivityOutcome.failed(message: "\(error)")
                responder.reply([.string(failure.state.rawValue), .vardict(failure.resultValues)])
            }
        }
    }
}
