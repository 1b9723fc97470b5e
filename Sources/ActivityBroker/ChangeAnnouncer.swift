// ActivitiesChanged and PropertiesChanged(ActivityCount), coalesced per loop turn.
import ActivityBrokerInterface
import DBus

/// Tells subscribers the set of activities changed. A burst of changes in one loop turn (a
/// storm of registrations) sends one `ActivitiesChanged` and one `PropertiesChanged`.
///
/// Loop-confined (the connection's loop).
final class ChangeAnnouncer: @unchecked Sendable {
    private let connection: Connection
    private var scheduled = false

    init(connection: Connection) { self.connection = connection }

    /// Sends both signals at the end of this loop turn, once however often it is called.
    func announce() {
        connection.assertOnLoop()
        guard !scheduled else { return }
        scheduled = true
        connection.queue.async { [self] in
            scheduled = false
            try? connection.emit(
                Signal(
                    path: Broker1.objectPath, interface: Broker1.interface, member: Broker1.activitiesChanged.name,
                    body: [], destination: nil))
            connection.emitPropertiesChanged(
                path: Broker1.objectPath, interface: Broker1.interface, names: [Broker1.activityCount.name.rawValue])
        }
    }
}
