// Issue 11, item 10: ActivitiesChanged and PropertiesChanged(ActivityCount) coalesced during bursts.
import DBus
import Foundation
import TestSupport
import Testing

@testable import ActivityBroker

@Suite("Hardening: change announcements")
struct ChangeCoalescingTests {
    @Test("Item 10: 1,000 register/unregister calls give listeners far fewer signals; a single change is still announced")
    func burstsAreCoalesced() async throws {
        let f = try await BrokerFixture()
        let listener = try f.bus.connect()
        let changes = f.signals("ActivitiesChanged", interface: BrokerFixture.interface, on: listener)
        let properties = f.signals("PropertiesChanged", interface: .properties, on: listener)
        try await f.settle(on: listener)
        let app = try f.bus.connect()

        // A single change after a quiet spell is announced (with a deadline, not a timing).
        try await f.register("org.test.single", on: app)
        _ = try await changes.next("ActivitiesChanged for a single registration")
        _ = try await properties.next("PropertiesChanged for a single registration")

        let before = (changes: changes.count, properties: properties.count)
        let start = ContinuousClock.now
        for n in 0..<500 {
            try await f.register("org.test.burst\(n)", on: app)
            try await f.call("UnregisterActivity", [.string("org.test.burst\(n)")], on: app)
        }
        // Every signal sent before the Ping's reply has arrived by now.
        try await f.settle(on: listener)
        let duringBurst = (changes: changes.count - before.changes, properties: properties.count - before.properties)
        // At most one announcement per window while changes keep coming, however long the burst
        // took (a loaded machine makes it longer), and far fewer than the calls in any case.
        guard case .milliseconds(let window) = ChangeAnnouncer.window else { fatalError("window in milliseconds") }
        let windows = Int((ContinuousClock.now - start) / .milliseconds(window)) + 3
        let bound = min(windows, 500)
        #expect(duringBurst.changes <= bound, "\(duringBurst.changes) ActivitiesChanged for 1,000 calls in \(windows) windows")
        #expect(duringBurst.properties <= bound, "\(duringBurst.properties) PropertiesChanged for 1,000 calls in \(windows) windows")
        // The burst is announced, however coalesced.
        try await changes.waitForCount(before.changes + 1, "an ActivitiesChanged for the burst")
        #expect(try await f.property("ActivityCount") == .uint32(1))
    }
}
