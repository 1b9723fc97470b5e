// What the fair loop handles out of turn: the bus driver's messages (a barrier) and the disconnect (drops calls).
@testable import DBus
import Foundation
import Testing
import TestSupport

@Suite struct LoopBarrierTests {
    /// How long each step may take: a bound, not a wait. 10 s ran out once in a clean-clone
    /// CI run, while the whole suite was starting at once (tests that do nothing took 11 s).
    static let patience: Deadline = .seconds(30)

    /// A provider takes a name while the service's loop holds a backlog of the bus's signals
    /// (connections coming and going); a client that saw the change then asks the service
    /// (a read-only call, served promptly) must get the new owner. Queued per sender, the bus's
    /// signals went one per visit and the client's call was answered from before the change.
    @Test("A call read after a NameOwnerChanged is handled after it, behind a backlog of the bus's signals")
    func callSeesEarlierNameOwnerChanged() async throws {
        let pair = try await BusPair.start()
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
        try await waitUntil("the name watch to be ready", deadline: Self.patience) { owner.value != nil }
        // A round trip to the bus after AddMatch: the bus has the match before the churn starts.
        _ = try await pair.service.call(.bus("GetId"))
        pair.service.queue.sync { pair.service.holdsIncoming = true }

        for _ in 0..<10 { try pair.bus.connect().close() }
        let provider = try pair.bus.connect()
        defer { provider.close() }
        let seen = Locked<String?>(nil)
        _ = pair.client.watchNameOwner(name) { current in seen.withLock { $0 = current } }
        #expect(try await provider.requestName(name) == .primaryOwner)
        try await waitUntil("the client to see the provider own the name", deadline: Self.patience) {
            seen.value == provider.uniqueName
        }
        let answer = Task { try await pair.call("/test/Probe", "org.example.Probe", "Owner") }
        try await waitUntil("the service to have read the client's call", deadline: Self.patience) {
            pair.service.queue.sync { pair.service.incoming.count(from: pair.client.uniqueName) } > 0
        }
        pair.service.queue.sync {
            pair.service.holdsIncoming = false
            pair.service.scheduleDispatch()
        }
        let reply = try await answer.value
        #expect(reply.first?.string == provider.uniqueName)
    }

    /// The bus goes away while a call and a signal wait in the service's queues: the signal is
    /// still handled (it happened), the call is not (its caller can never hear back; before,
    /// it ran, and a Perform would have started a job for nobody).
    @Test("On disconnect, queued signals are handled and queued calls dropped")
    func disconnectDropsQueuedCalls() async throws {
        let pair = try await BusPair.start()
        let calls = Locked(0)
        let signals = Locked(0)
        let disconnected = Locked(false)
        try pair.service.export(
            "/test/Probe",
            interfaces: [
                Interface(
                    "org.example.Probe",
                    methods: [Method("Start", handler: .immediate { _ in calls.withLock { $0 += 1 }; return [] })])
            ])
        _ = pair.service.addMatch(MatchRule(interface: "org.example.Probe", member: "Note")) { _ in
            signals.withLock { $0 += 1 }
        }
        pair.service.onDisconnect { disconnected.withLock { $0 = true } }
        _ = try await pair.service.call(.bus("GetId"))
        pair.service.queue.sync { pair.service.holdsIncoming = true }

        let call = Task { try? await pair.call("/test/Probe", "org.example.Probe", "Start") }
        try pair.client.emit(
            Signal(
                path: "/test/Probe", interface: "org.example.Probe", member: "Note",
                destination: try BusName(pair.service.uniqueName)))
        try await waitUntil("the service to have read the call and the signal", deadline: Self.patience) {
            pair.service.queue.sync { pair.service.incoming.count(from: pair.client.uniqueName) } == 2
        }
        await pair.bus.stopOffPool()
        try await waitUntil("the service to see the bus gone", deadline: Self.patience) { disconnected.value }
        _ = await call.value
        #expect(signals.value == 1)
        #expect(calls.value == 0)
    }
}
