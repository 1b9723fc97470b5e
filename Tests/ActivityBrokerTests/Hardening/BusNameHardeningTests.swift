// Issue 11, items 1 and 18: bus-name availability through the real broker — no re-entrant
// refresh storm, SIGTERM always works, and a service installed just now is not refused.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Hardening: bus names and activatable services")
struct BusNameHardeningTests {
    static let url = "https://example.org/bus-names"

    @Test("Item 1: a name change once the activatable refresh is due does not recurse; Ping answers and SIGTERM stops the broker")
    func noRecursionWhenRefreshIsDue() async throws {
        // 26 manifests each requiring an absent name: on the old broker, one NameOwnerChanged
        // while the refresh was due re-entered the availability walk exponentially.
        var manifests: [String: String] = [:]
        for k in 0..<26 {
            manifests["absent\(k).json"] = TestManifest.json(
                id: "org.test.absent\(k)", requires: #"{"dbus_names": ["org.test.Absent\#(k)"]}"#)
        }
        // The refresh of activatable names is due at every lookup miss with an interval of 0:
        // the state that took 5 s of waiting to reach on the old broker.
        let f = try await BrokerFixture(builtin: manifests, arguments: ["--activatable-refresh-interval", "0"])
        #expect(try await f.registered().values.allSatisfy { $0["available"] == .boolean(false) })

        let service = try f.bus.connect()
        #expect(try await service.requestName("org.test.Absent0") == .primaryOwner)
        service.close()
        try await f.settle()
        try await waitUntil("org.test.absent0 to be unavailable again") {
            try await f.registered()["org.test.absent0"]?["available"] == .boolean(false)
        }
        try await f.settle()
        #expect(try await f.stopBroker() == .exited(0))
    }

    @Test("Item 18: a D-Bus service installed just before Perform is not refused as unavailable")
    func serviceInstalledJustBeforePerform() async throws {
        let f = try await BrokerFixture(
            builtin: [
                "late.json": TestManifest.json(
                    id: "org.test.late", perform: #"{"dbus": {"name": "org.test.Late", "path": "/org/test/Late"}}"#)
            ], serviceDirectory: true)
        #expect(try await f.registered()["org.test.late"]?["available"] == .boolean(false))
        try f.write("[D-BUS Service]\nName=org.test.Late\nExec=/bin/false\n", to: "services/org.test.Late.service")
        // The bus has read the new file once ReloadConfig returns; the broker was not told.
        _ = try await f.client.call(
            MethodCall(
                destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "ReloadConfig"))
        let finished = f.finishedSignals()
        let job = try await f.perform("org.test.late", ["url": .string(Self.url)])
        // Activating /bin/false fails the job; what matters is that Perform was not refused.
        #expect(try await f.finished(job, in: finished).state == "failed")
        #expect(try await f.registered()["org.test.late"]?["available"] == .boolean(true))
    }

    @Test("Item 18: a name that is still unknown after the refresh is refused with Unavailable")
    func unknownNameStillRefused() async throws {
        let f = try await BrokerFixture(builtin: [
            "never.json": TestManifest.json(
                id: "org.test.never", perform: #"{"dbus": {"name": "org.test.Never", "path": "/org/test/Never"}}"#)
        ])
        #expect(
            await f.errorName(
                "Perform", [.string("org.test.never"), .vardict(["url": .string(Self.url)]), .vardict([:])])
                == BrokerFixture.errorPrefix + "Unavailable")
    }
}
