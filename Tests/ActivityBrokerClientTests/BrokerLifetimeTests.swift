// What happens to the broker when its bus goes away: it exits rather than outliving the session.
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct BrokerLifetimeTests {
    /// Regression: the broker kept running without a connection after its bus was gone (a
    /// daemon outliving the session). It now writes its usage file and exits.
    @Test func theBrokerExitsWhenItsBusGoesAway() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start())
        defer { broker.stopInBackground() }
        let pid = broker.pid
        await broker.bus.stopOffPool()
        try await waitUntil("the broker to exit after its bus went away") {
            processIsGone(pid)
        }
    }
}
