// ActivitiesChanged and PropertiesChanged(ActivityCount), coalesced over a short window during bursts.
import ActivityBrokerInterface
import DBus
import Foundation

/// Tells subscribers the set of activities changed: at most one `ActivitiesChanged` and one
/// `PropertiesChanged` per `window`. A change after a quiet spell is announced at the end of
/// its loop turn (promptly); changes within `window` of the last announcement are folded into
/// one announcement when the window ends, so a storm of registrations costs every listener a
/// few signals, not one per call, and the last state is always announced.
///
/// Loop-confined (the connection's loop).
final class ChangeAnnouncer: @unchecked Sendable {
    /// The shortest time between two announcements.
    static let window: DispatchTimeInterval = .milliseconds(200)
    private let connection: Connection
    private var scheduled = false
    private var lastSent = DispatchTime(uptimeNanoseconds: 0)

    init(connection: Connection) { self.connection = connection }

    /// Sends both signals once, at the end of this loop turn or when the window ends.
    func announce() {
        connection.assertOnLoop()
        guard !scheduled else { return }
        scheduled = true
        let earliest = lastSent + Self.window
        if DispatchTime.now() >= earliest {
            connection.queue.async { [self] in send() }
        } else {
            connection.queue.asyncAfter(deadline: earliest) { [self] in send() }
        }
    }

    private func send() {
        scheduled = false
        lastSent = .now()
        try? connection.emit(
            Signal(
                path: Broker1.objectPath, interface: Broker1.interface, member: Broker1.activitiesChanged.name,
                body: [], destination: nil))
        connection.emitPropertiesChanged(
            path: Broker1.objectPath, interface: Broker1.interface, names: [Broker1.activityCount.name.rawValue])
    }
}
