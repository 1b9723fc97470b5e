// The bus driver's messages are a barrier for the fair loop: a call read after a NameOwnerChanged sees it.
@testable import DBus
import Foundation
import Testing
import TestSupport

@Suite struct BusDriverOrderTests {
    /// A provider takes a name while the service's loop holds a backlog of the bus's signals
    /// (connections coming and going); a client that saw the change then asks the service
    /// (a read-only call, served promptly) must get the new owner. Queued per sender, the bus's
    /// signals went one per visit and the client's call was answered from before the change.
    @Test("A call read after a NameOwnerChanged is handled after it, behind a backlog of the bus's signals")
    func callSeesEarlierNameOwnerChanged() async throws {
        let pair = try BusPair()
        let name: BusName = "org.example.Watched"
        let owner = Locked<String??>(.none)
        _ = pair.service.watchNameOwner(name) { current in owner.withLock { $0 = .some(current) } }
        // Every NameOwnerChanged reaches the service: the churn below queues a backlog of them.
        _ = pair.service.addMatch(MatchRule(sender: "org.freedesktop.DBus", member: "NameOwnerChanged")) { _ in }
        try pair.service.export(
            "/test/Probe",
            interfaces: [
                Interface(
                    "org.example.Probe",
                    methods: [
                        Method(
                            "Owner", out: [Argument("owner", "s")], readOnly: true,
                            handler: .immediate { _ in [.string((owner.value ?? nil) ?? "")] })
                    ])
            ])
        try await waitUntil("the name watch to be ready", deadline: .seconds(10)) { owner.value != nil }
        // A round trip to the bus after AddMatch: the bus has the match before the churn starts.
        _ = try await pair.service.call(.bus("GetId"))
        pair.service.queue.sync { pair.service.holdsIncoming = true }

        for _ in 0..<10 { try pair.bus.connect().close() }
        let provider = try pair.bus.connect()
        defer { provider.close() }
        let seen = Locked<String?>(nil)
        _ = pair.client.watchNameOwner(name) { current in seen.withLock { $0 = current } }
        #expect(try await provider.requestName(name) == .primaryOwner)
        try await waitUntil("the client to see the provider own the name", deadline: .seconds(10)) {
            seen.value == provider.uniqueName
        }
        let answer = Task { try await pair.call("/test/Probe", "org.example.Probe", "Owner") }
        try await waitUntil("the service to have read the client's call", deadline: .seconds(10)) {
            pair.service.queue.sync { pair.service.incoming.count(from: pair.client.uniqueName) } > 0
        }
        pair.service.queue.sync {
            pair.service.holdsIncoming = false
            pair.service.scheduleDispatch()
        }
        let reply = try await answer.value
        #expect(reply.first?.string == provider.uniqueName)
    }
}
