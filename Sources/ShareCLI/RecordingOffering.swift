// RecordingOffering: the broker as `share browse`'s ActivityOffering, keeping how its last listing failed.
import ActivityBrokerClient
import Foundation
import Navigation

/// The broker as the browse session's `ActivityOffering`, remembering the typed error of its
/// last `ListActivities`.
///
/// `ActivitySheet.brokerError` is only a string, and the browse loop must tell a broker that
/// refused the request (it answered: a title or URL it does not accept) from one that is not
/// there; calling both "not reachable" sent users looking for a broker that was running.
/// `@unchecked Sendable`: `lastError` is only read and written under `lock`.
final class RecordingOffering: ActivityOffering, @unchecked Sendable {
    let broker: BrokerProxy
    private let lock = NSLock()
    private var lastError: BrokerError?

    init(_ broker: BrokerProxy) {
        self.broker = broker
    }

    /// How the last listing failed; nil when it succeeded (or none was made).
    var lastListingError: BrokerError? { lock.withLock { lastError } }

    func offeredActivities(for items: SharedItems, excluding: [String], locale: String?) async throws
        -> [OfferedActivity]
    {
        do throws(BrokerError) {
            let offered = try await broker.activities(for: items, locale: locale, exclude: excluding)
            lock.withLock { lastError = nil }
            return offered
        } catch {
            lock.withLock { lastError = error }
            throw error
        }
    }

    func performActivity(_ id: String, items: SharedItems) async throws -> ActivityOutcome {
        try await broker.performActivity(id, items: items)
    }
}
