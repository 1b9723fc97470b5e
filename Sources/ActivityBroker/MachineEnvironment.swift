// What the machine offers (programs on PATH, bus names, variables), cached for the request path.
import ActivityKit
import DBus
import Dispatch
import Glibc
import SystemSupport

/// The domain's `Environment`, answered from caches so that `ListActivities` never does
/// disk or bus work.
///
/// Loop-confined. Executables are looked up through `ExecutableLocator`, whose cache is
/// dropped when a PATH directory changes; bus names come from `ListNames` and
/// `ListActivatableNames` at start, kept current by `NameOwnerChanged`. Activatable names are
/// asked for again on `ActivatableServicesChanged` (dbus-daemon 1.15+), before a `Perform`
/// is refused for a name not known (`refreshBeforeRefusing`), and (without waiting) when a
/// lookup misses and the last answer is older than `activatableRefreshInterval`.
///
/// Re-entrancy: the `Environment` answers never call out. `onChange` runs only from a bus
/// message or watcher callback of its own loop turn, never from inside a lookup, so an
/// availability walk (which looks up names) cannot re-enter itself.
final class MachineEnvironment: Environment, @unchecked Sendable {
    private let connection: Connection
    private let variables: [String: String]
    /// The broker's PATH (never changes): the catalog's reader looks programs up on it with a
    /// locator of its own, off the loop.
    let path: String
    private let locator = ExecutableLocator()
    private var ownedNames: Set<String> = []
    private var activatableNames: Set<String> = []
    /// When the names were last read (the monotonic clock); nil before the first answer.
    private var activatableRefreshed: DispatchTime?
    /// Set while a `ListActivatableNames` call is out; what waits for its answer.
    private var activatableRefresh: [() -> Void]?
    private var pathWatcher: DirectoryWatcher?
    private var subscriptions: [Subscription] = []
    /// How old the activatable names may be before a lookup miss refreshes them.
    private let activatableRefreshInterval: Double
    /// How long a question to the bus daemon may stay unanswered (`BrokerConfiguration.busQueryTimeout`).
    private let queryTimeout: Duration

    /// Called on the loop, in a turn of its own, with what may have changed.
    var onChange: ((MachineChange) -> Void)?

    init(
        connection: Connection, environment: [String: String], activatableRefreshInterval: Double,
        queryTimeout: Duration
    ) {
        self.connection = connection
        self.activatableRefreshInterval = activatableRefreshInterval
        self.queryTimeout = queryTimeout
        self.variables = environment
        self.path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    }

    /// Learns the bus's names and starts watching PATH, name owners and activatable services.
    func start() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            connection.queue.async { [self] in
                subscriptions.append(
                    connection.addMatch(
                        DBus.MatchRule(
                            sender: BusName.bus.rawValue, interface: .bus, member: "NameOwnerChanged")
                    ) { [unowned self] signal in nameOwnerChanged(signal.body) })
                subscriptions.append(
                    connection.addMatch(
                        DBus.MatchRule(
                            sender: BusName.bus.rawValue, interface: .bus, member: "ActivatableServicesChanged")
                    ) { [unowned self] _ in refreshActivatableNames() })
                pathWatcher = try? DirectoryWatcher(
                    directories: ExecutableLocator.directories(in: path), queue: connection.queue
                ) { [unowned self] _ in
                    locator.invalidate()
                    onChange?(.programs)
                }
                let group = DispatchGroup()
                group.enter()
                listNames(member: "ListNames") { [self] names in
                    ownedNames = Set(names.filter { !$0.hasPrefix(":") })
                    group.leave()
                }
                group.enter()
                refreshActivatableNames { group.leave() }
                group.notify(queue: connection.queue) { done.resume() }
            }
        }
    }

    func hasExecutable(_ name: String) -> Bool {
        locator.find(name, path: path) != nil
    }

    /// Never calls out: a miss at most starts a refresh whose answer arrives in a later turn.
    func hasBusName(_ name: String) -> Bool {
        if isKnown(name) { return true }
        if activatableNamesAreStale { refreshActivatableNames() }
        return false
    }

    /// Whether the activatable names were never read or are older than the refresh interval.
    private var activatableNamesAreStale: Bool {
        guard let refreshed = activatableRefreshed else { return true }
        let age = Double(DispatchTime.now().uptimeNanoseconds - refreshed.uptimeNanoseconds) / 1e9
        return age > activatableRefreshInterval
    }

    func hasVariable(_ name: String) -> Bool {
        !(variables[name] ?? "").isEmpty
    }

    /// Whether `name` has an owner or is activatable, as last heard.
    func isKnown(_ name: String) -> Bool {
        ownedNames.contains(name) || activatableNames.contains(name)
    }

    /// Asks the bus for its activatable names again when any of `names` is not known, then runs
    /// `then` (on the loop, after `onChange` has been told of what changed); at once when all
    /// are known. A service file installed just before a `Perform` is then not refused.
    func refreshBeforeRefusing(_ names: Set<String>, then: @escaping () -> Void) {
        connection.assertOnLoop()
        guard names.contains(where: { !isKnown($0) }) else { return then() }
        refreshActivatableNames(then: then)
    }

    private func nameOwnerChanged(_ body: [Value]) {
        guard body.count == 3, let name = body[0].string, let newOwner = body[2].string, !name.hasPrefix(":")
        else { return }
        if newOwner.isEmpty { ownedNames.remove(name) } else { ownedNames.insert(name) }
        onChange?(.busNames([name]))
    }

    /// Asks for the activatable names; `then` runs once the answer is in (a refresh already out
    /// is joined, never answered early). Tells `onChange` of the names that came or went.
    private func refreshActivatableNames(then: (() -> Void)? = nil) {
        if activatableRefresh != nil {
            if let then { activatableRefresh?.append(then) }
            return
        }
        activatableRefresh = then.map { [$0] } ?? []
        listNames(member: "ListActivatableNames") { [self] names in
            let fresh = Set(names)
            let changed = fresh.symmetricDifference(activatableNames)
            activatableNames = fresh
            activatableRefreshed = DispatchTime.now()
            let waiting = activatableRefresh ?? []
            activatableRefresh = nil
            if !changed.isEmpty { onChange?(.busNames(changed)) }
            for waiter in waiting { waiter() }
        }
    }

    private func listNames(member: MemberName, completion: @escaping ([String]) -> Void) {
        let call = MethodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: member)
        _ = connection.call(call, timeout: queryTimeout) { result in
            completion((try? result.get())?.first?.stringArray ?? [])
        }
    }
}
