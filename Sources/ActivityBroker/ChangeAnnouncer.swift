// ActivitiesChanged and PropertiesChanged(ActivityCount), coalesced over a short window during bursts.
import ActivityBrokerInterface
import DBus
import Dispatch
import Glibc

/// Tells subscribers the set of activities changed: at most one `ActivitiesChanged` and one
/// `PropertiesChanged` per `window`. A change after a quiet spell is announced at the end of
/// its loop turn (promptly); changes within `window` of the last announcement are folded into
/// one announcement when the window ends, so a storm of registrations costs every listener a
/// few signals, not one per call, and the last state is always announced.
///
/// Silent until `goLive()`: what changes while the broker loads and learns the bus's names is
/// its initial state, which a client reads once it sees the name owned. Announced late (the
/// window delays a second announcement), such a change would reach a client that subscribed
/// after start-up as a change it never saw happen.
///
/// Loop-confined (the connection's loop).
final class ChangeAnnouncer: @unchecked Sendable {
    /// The shortest time between two announcements.
    static let window: DispatchTimeInterval = .milliseconds(200)
    private let connection: Connection
    private var scheduled = false
    private var isLive = false
    /// Nil before the first announcement. (Not `DispatchTime(uptimeNanoseconds: 0)`: Dispatch
    /// reads 0 as "now", which held the first announcement back a whole window.)
    private var lastSent: DispatchTime?

    init(connection: Connection) { self.connection = connection }

    /// Announces from now on; called on the loop just before the broker requests its name.
    func goLive() {
        connection.assertOnLoop()
        isLive = true
    }

    /// Sends both signals once, at the end of this loop turn or when the window ends.
    func announce() {
        connection.assertOnLoop()
        guard isLive, !scheduled else { return }
        scheduled = true
        if let lastSent, DispatchTime.now() < lastSent + Self.window {
            connection.queue.asyncAfter(deadline: lastSent + Self.window) { [self] in send() }
        } else {
            connection.queue.async { [self] in send() }
        }
    }

    private func send() {
        scheduled = false
        lastSent = .now()
        try? connection.emit(Broker1.activitiesChanged.signal(at: Broker1.objectPath))
        connection.emitPropertiesChanged(
            path: Broker1.objectPath, interface: Broker1.interface, names: [Broker1.activityCount.name.rawValue])
    }
}
