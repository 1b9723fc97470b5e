// Who owns org.activitybroker.Broker1 on a test bus: the readiness barrier of every test broker.
import ActivityBrokerInterface
import DBus
import Foundation

/// Follows the owner of `org.activitybroker.Broker1` on one bus through the DBus module's
/// owner watch (GetNameOwner, then every `NameOwnerChanged`), so that a test knows a broker is
/// ready when the bus says it owns its name, never from its log.
///
/// Create it before starting the broker: changes are kept in order from then on. Thread-safe.
public final class BrokerNameWatch: Sendable {
    /// The broker's well-known name.
    public static let name = Broker1.busName

    /// One owner change and when its signal arrived (on the connection's loop).
    private struct Change: Sendable {
        let owner: String?
        let arrival: ContinuousClock.Instant
    }

    private let connection: Connection
    private let changes = Inbox<Change>()
    /// The newest owner heard of; `.none` until the first answer.
    private let latest = Locked<String??>(.none)

    public init(bus: TestBus) throws {
        connection = try bus.connect()
        _ = connection.watchNameOwner(Self.name) { [changes, latest] owner in
            latest.value = .some(owner)
            changes.put(Change(owner: owner, arrival: .now))
        }
    }

    deinit { connection.close() }

    /// Waits until process `pid` owns the name (the owner's `GetConnectionUnixProcessID`), and
    /// returns when that change arrived. Changes to other owners are passed over.
    /// - Throws: `TimeoutError` at `deadline`, or as soon as `isRunning` says the process is
    ///   gone (checked whenever the bus is quiet for a moment), with `diagnostics()` in it.
    public func waitForOwner(
        pid: pid_t, deadline: Deadline, isRunning: () -> Bool, diagnostics: () -> String
    ) async throws -> ContinuousClock.Instant {
        while true {
            let change: Change
            do {
                change = try await changes.next(deadline: min(deadline, .after(.milliseconds(250))))
            } catch is TimeoutError {
                guard !deadline.hasPassed, isRunning() else {
                    throw TimeoutError("process \(pid) to own \(Self.name); \(diagnostics())")
                }
                continue
            }
            guard let owner = change.owner else { continue }
            if let ownerPID = try? await connection.unixProcessID(of: owner), ownerPID == UInt32(pid) {
                return change.arrival
            }
        }
    }

    /// Waits until the name has an owner (any), or has none.
    /// - Throws: `TimeoutError` at `deadline`.
    public func waitUntil(owned: Bool, deadline: Deadline) async throws {
        while true {
            if case .some(let owner) = latest.value, (owner != nil) == owned { return }
            _ = try await changes.next("\(Self.name) to be \(owned ? "owned" : "released")", deadline: deadline)
        }
    }
}
