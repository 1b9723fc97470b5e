// What the machine offers (programs on PATH, bus names, variables), cached for the request path.
import ActivityKit
import DBus
import Foundation
import SystemSupport

/// The domain's `Environment`, answered from caches so that `ListActivities` never does
/// disk or bus work.
///
/// Loop-confined. Executables are looked up through `ExecutableLocator`, whose cache is
/// dropped when a PATH directory changes; bus names come from `ListNames` and
/// `ListActivatableNames` at start, kept current by `NameOwnerChanged`. Activatable names
/// have no change signal, so they are asked for again (without waiting) when a lookup
/// misses and the last answer is older than `activatableRefreshInterval`.
final class MachineEnvironment: Environment, @unchecked Sendable {
    private let connection: Connection
    private let variables: [String: String]
    private let path: String
    private let locator = ExecutableLocator()
    private var ownedNames: Set<String> = []
    private var activatableNames: Set<String> = []
    private var activatableRefreshed = Date.distantPast
    private var activatableRefreshInFlight = false
    private var pathWatcher: DirectoryWatcher?
    private var nameOwnerSubscription: Subscription?
    static let activatableRefreshInterval: TimeInterval = 5

    /// Called on the loop when an answer may have changed.
    var onChange: (() -> Void)?

    init(connection: Connection, environment: [String: String]) {
        self.connection = connection
        self.variables = environment
        self.path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    }

    /// Learns the bus's names and starts watching PATH and name owners.
    func start() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            connection.queue.async { [self] in
                nameOwnerSubscription = connection.addMatch(
                    DBus.MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged")
                ) { [unowned self] signal in nameOwnerChanged(signal.body) }
                pathWatcher = try? DirectoryWatcher(
                    directories: ExecutableLocator.directories(in: path), queue: connection.queue
                ) { [unowned self] _ in
                    locator.invalidate()
                    onChange?()
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

    func hasBusName(_ name: String) -> Bool {
        if ownedNames.contains(name) || activatableNames.contains(name) { return true }
        if Date().timeIntervalSince(activatableRefreshed) > Self.activatableRefreshInterval {
            refreshActivatableNames { [self] in onChange?() }
        }
        return false
    }

    func hasVariable(_ name: String) -> Bool {
        !(variables[name] ?? "").isEmpty
    }

    private func nameOwnerChanged(_ body: [Value]) {
        guard body.count == 3, let name = body[0].string, let newOwner = body[2].string, !name.hasPrefix(":")
        else { return }
        if newOwner.isEmpty { ownedNames.remove(name) } else { ownedNames.insert(name) }
        onChange?()
    }

    private func refreshActivatableNames(then done: @escaping () -> Void) {
        guard !activatableRefreshInFlight else { return done() }
        activatableRefreshInFlight = true
        listNames(member: "ListActivatableNames") { [self] names in
            activatableNames = Set(names)
            activatableRefreshed = Date()
            activatableRefreshInFlight = false
            done()
        }
    }

    private func listNames(member: MemberName, completion: @escaping ([String]) -> Void) {
        let call = MethodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: member)
        _ = connection.call(call, timeout: .seconds(5)) { result in
            completion((try? result.get())?.first?.stringArray ?? [])
        }
    }
}
