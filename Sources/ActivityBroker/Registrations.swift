// RegisterActivity and UnregisterActivity: dynamic activities that live as long as their owner's connection.
import ActivityKit
import DBus

/// Adds and removes dynamic activities in `ActivityState` and removes an owner's activities
/// when its connection leaves the bus.
///
/// Loop-confined (the connection's loop): the disconnect watches run there too.
final class Registrations: @unchecked Sendable {
    private let activities: ActivityState
    private let connection: Connection
    private let log: BrokerLog
    /// Disconnect watches of connections that registered activities, by unique name.
    private var ownerWatches: [String: Subscription] = [:]

    init(activities: ActivityState, connection: Connection, log: BrokerLog) {
        self.activities = activities
        self.connection = connection
        self.log = log
    }

    /// `RegisterActivity`: a dynamic activity served by `caller`, gone when it disconnects.
    func register(record: [String: Value], caller: String) throws(ActivityError) {
        connection.assertOnLoop()
        let activity = try RegistrationDecoder.decode(record, owner: caller)
        try activities.register(activity, owner: caller)
        watchOwner(caller)
        // Batched: a burst of registrations (a storm of 10,000) would otherwise write one line
        // to standard error per call on the loop (6 % of the broker's samples in a storm).
        log.frequentEvent("registered \(activity.id) (by \(caller))")
    }

    /// `UnregisterActivity`: only the owner may.
    func unregister(id: String, caller: String) throws(ActivityError) {
        connection.assertOnLoop()
        let activityID = try ActivityID(id)
        try activities.unregister(activityID, caller: caller)
        log.event("unregistered \(activityID) (by \(caller))")
    }

    /// Removes a connection's registrations when it leaves the bus.
    private func watchOwner(_ owner: String) {
        guard ownerWatches[owner] == nil else { return }
        ownerWatches[owner] = connection.watchDisconnect(of: owner) { [unowned self] in
            ownerWatches[owner] = nil
            let removed = activities.removeAll(ownedBy: owner)
            guard !removed.isEmpty else { return }
            log.event("\(owner) left the bus; removed \(removed.count) of its activities")
        }
    }
}
