// Signals and watches: broadcast vs unicast, local matching, name owners, disconnects, NameLost.
import DBus
import Foundation
import Testing
import TestSupport

@Suite struct SignalTests {
    static let rule = MatchRule(interface: "org.example.Signals", member: "Hello")

    func hello(to destination: String? = nil, _ text: String) throws -> Signal {
        Signal(
            path: "/test/Signals", interface: "org.example.Signals", member: "Hello", body: [.string(text)],
            destination: try destination.map { try BusName($0) })
    }

    @Test func broadcastReachesEverySubscriber() async throws {
        let pair = try await BusPair.start()
        let third = try pair.bus.connect()
        defer { third.close() }
        let atClient = Inbox<IncomingSignal>()
        let atThird = Inbox<IncomingSignal>()
        _ = pair.client.addMatch(Self.rule) { atClient.put($0) }
        _ = third.addMatch(Self.rule) { atThird.put($0) }
        try await pair.settle(pair.client)
        try await pair.settle(third)
        try pair.service.emit(hello("everyone"))
        let received = try await atClient.next()
        #expect(received.body == [.string("everyone")])
        #expect(received.sender == pair.service.uniqueName)
        #expect(received.path == "/test/Signals")
        #expect(received.destination == nil)
        #expect(try await atThird.next().body == [.string("everyone")])
    }

    @Test func unicastReachesOnlyItsDestination() async throws {
        let pair = try await BusPair.start()
        let third = try pair.bus.connect()
        defer { third.close() }
        let atClient = Inbox<IncomingSignal>()
        let atThird = Inbox<IncomingSignal>()
        _ = pair.client.addMatch(Self.rule) { atClient.put($0) }
        _ = third.addMatch(Self.rule) { atThird.put($0) }
        try await pair.settle(pair.client)
        try await pair.settle(third)
        try pair.service.emit(hello(to: pair.client.uniqueName, "just you"))
        let received = try await atClient.next()
        #expect(received.body == [.string("just you")])
        #expect(received.destination == pair.client.uniqueName)
        // The service sent the signal before answering this Ping: had the bus routed it to the
        // third connection, it would have been dispatched there before the reply.
        try await pair.settle(third)
        #expect(atThird.count == 0)
    }

    @Test func localMatchingFiltersByEveryField() async throws {
        let pair = try await BusPair.start()
        let byMember = Inbox<String>()
        let byArg0 = Inbox<String>()
        let byPath = Inbox<String>()
        let bySender = Inbox<String>()
        let byOtherSender = Inbox<String>()
        _ = pair.client.addMatch(MatchRule(interface: "org.example.Signals", member: "Other")) { byMember.put($0.member) }
        _ = pair.client.addMatch(MatchRule(interface: "org.example.Signals", arg0: "b")) { byArg0.put($0.body[0].string ?? "") }
        _ = pair.client.addMatch(MatchRule(path: "/test/Elsewhere")) { byPath.put($0.member) }
        _ = pair.client.addMatch(MatchRule(sender: pair.service.uniqueName, interface: "org.example.Signals")) { bySender.put($0.member) }
        _ = pair.client.addMatch(MatchRule(sender: pair.client.uniqueName, interface: "org.example.Signals")) { byOtherSender.put($0.member) }
        try await pair.settle(pair.client)
        try pair.service.emit(hello("a"))
        try pair.service.emit(hello("b"))
        try pair.service.emit(Signal(path: "/test/Elsewhere", interface: "org.example.Signals", member: "Other"))
        try await pair.settle(pair.client)
        #expect(byMember.items == ["Other"])
        #expect(byArg0.items == ["b"])
        #expect(byPath.items == ["Other"])
        #expect(bySender.items == ["Hello", "Hello", "Other"])
        #expect(byOtherSender.items == [])
    }

    @Test func wellKnownSenderIsMatchedThroughItsOwner() async throws {
        let pair = try await BusPair.start()
        let impostor = try pair.bus.connect()
        defer { impostor.close() }
        #expect(try await pair.service.requestName("org.example.Sender", flags: .doNotQueue) == .primaryOwner)
        let received = Inbox<String>()
        _ = pair.client.addMatch(MatchRule(sender: "org.example.Sender", interface: "org.example.Signals")) {
            received.put($0.sender)
        }
        try await pair.settle(pair.client)
        // Unicast from another connection reaches the client regardless of the bus's rules; the
        // local check must drop it.
        try impostor.emit(hello(to: pair.client.uniqueName, "fake"))
        try pair.service.emit(hello("real"))
        try await waitUntil("the real signal") { received.count >= 1 }
        _ = try await impostor.call(MethodCall(destination: try BusName(pair.client.uniqueName), path: "/", interface: .peer, member: "Ping"))
        try await pair.settle(pair.client)
        #expect(received.items == [pair.service.uniqueName])
    }

    @Test func cancelledSubscriptionStopsDelivery() async throws {
        let pair = try await BusPair.start()
        let received = Inbox<String>()
        let subscription = pair.client.addMatch(Self.rule) { received.put($0.body[0].string ?? "") }
        try await pair.settle(pair.client)
        try pair.service.emit(hello("one"))
        _ = try await received.next()
        pair.client.cancel(subscription)
        try pair.service.emit(hello("two"))
        try await pair.settle(pair.client)
        #expect(received.items == ["one"])
    }

    /// `cancel` from off the loop removed the subscription in a later block on the loop, so a
    /// signal read before that block ran was still delivered (seen under ThreadSanitizer). Here
    /// the first signal's handler holds the loop while the test cancels and the second signal
    /// reaches the client's socket (the service's `GetId` after it returns once the bus has
    /// routed it); when the handler returns, the loop reads the second before it removes the
    /// subscription.
    @Test func aSignalReadBeforeTheCancelReachedTheLoopIsNotDelivered() async throws {
        let pair = try await BusPair.start()
        let received = Inbox<String>()
        let entered = Inbox<Void>()
        let release = DispatchSemaphore(value: 0)
        let subscription = pair.client.addMatch(Self.rule) { signal in
            received.put(signal.body[0].string ?? "")
            if received.count == 1 {
                entered.put(())
                release.wait()
            }
        }
        try await pair.settle(pair.client)
        try pair.service.emit(hello("one"))
        _ = try await entered.next("the first signal's handler")
        pair.client.cancel(subscription)
        try pair.service.emit(hello("two"))
        _ = try await pair.service.call(
            MethodCall(destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "GetId"))
        release.signal()
        try await pair.settle(pair.client)
        #expect(received.items == ["one"])
    }

    @Test func watchNameOwnerFollowsRequestAndRelease() async throws {
        let pair = try await BusPair.start()
        let owners = Inbox<String?>()
        let watch = pair.client.watchNameOwner("org.example.Owned") { owners.put($0) }
        #expect(try await owners.next("initial owner") == .some(nil))
        #expect(try await pair.service.requestName("org.example.Owned", flags: []) == .primaryOwner)
        #expect(try await owners.next("new owner") == pair.service.uniqueName)
        #expect(try await pair.service.requestName("org.example.Owned", flags: []) == .alreadyOwner)
        try await pair.service.releaseName("org.example.Owned")
        #expect(try await owners.next("owner gone") == .some(nil))
        pair.client.cancel(watch)

        let current = Inbox<String?>()
        _ = try await pair.service.requestName("org.example.Owned")
        _ = pair.client.watchNameOwner("org.example.Owned") { current.put($0) }
        #expect(try await current.next("current owner") == pair.service.uniqueName)
    }

    @Test func peerClosingIsReportedByBothWatches() async throws {
        let pair = try await BusPair.start()
        let peer = try pair.bus.connect()
        let peerName = peer.uniqueName
        let gone = Inbox<Bool>()
        let owners = Inbox<String?>()
        _ = pair.service.watchDisconnect(of: peerName) { gone.put(true) }
        _ = pair.service.watchNameOwner(try BusName(peerName)) { owners.put($0) }
        #expect(try await owners.next("initial owner") == peerName)
        try await pair.settle(pair.service)
        #expect(gone.count == 0)
        peer.close()
        _ = try await gone.next("disconnect")
        #expect(try await owners.next("owner gone") == .some(nil))
        try await pair.settle(pair.service)
        #expect(gone.count == 1)

        let already = Inbox<Bool>()
        _ = pair.service.watchDisconnect(of: peerName) { already.put(true) }
        _ = try await already.next("disconnect of a name already gone")
        _ = pair.service.watchDisconnect(of: "not a name") { already.put(true) }
        _ = try await already.next("disconnect of an invalid name")
    }

    @Test func nameLostIsReported() async throws {
        let pair = try await BusPair.start()
        let lost = Inbox<BusName>()
        pair.service.onNameLost { lost.put($0) }
        #expect(try await pair.service.requestName("org.example.Contested", flags: .allowReplacement) == .primaryOwner)
        #expect(try await pair.client.requestName("org.example.Contested", flags: .doNotQueue) == .exists)
        #expect(try await pair.client.requestName("org.example.Contested", flags: [.replaceExisting, .doNotQueue]) == .primaryOwner)
        #expect(try await lost.next("NameLost") == "org.example.Contested")
    }

    @Test func busGoingAwayEndsCallsAndReportsDisconnect() async throws {
        let bus = try await TestBus.start()
        let connection = try bus.connect()
        let disconnected = Inbox<Bool>()
        connection.onDisconnect { disconnected.put(true) }
        let outcome = Inbox<Result<[Value], DBusError>>()
        // A call that cannot be answered before the bus dies: its destination is activatable nowhere.
        let peer = try bus.connect()
        let parked = Locked<[Responder]>([])
        try peer.export("/x", interfaces: [Interface("org.example.Hang", methods: [Method("Hang", handler: .deferred { _, r in parked.withLock { $0.append(r) } })])])
        connection.call(MethodCall(destination: try BusName(peer.uniqueName), path: "/x", interface: "org.example.Hang", member: "Hang")) {
            outcome.put($0)
        }
        try await waitUntil("the call to be parked") { parked.value.count == 1 }
        await bus.stopOffPool()
        _ = try await disconnected.next("disconnect")
        let result = try await outcome.next("the pending call's end")
        #expect(throws: DBusError.self) { try result.get() }
        await #expect(throws: DBusError.self) {
            _ = try await connection.call(MethodCall(destination: "org.example.X", path: "/", interface: .peer, member: "Ping"))
        }
        #expect(throws: DBusError.self) { try connection.emit(Signal(path: "/", interface: "org.example.S", member: "S")) }
        connection.close()
        peer.close()
        parked.withLock { $0.removeAll() }
    }

    @Test func closeEndsPendingCallsWithDisconnected() async throws {
        let pair = try await BusPair.start()
        let parked = Locked<[Responder]>([])
        try pair.service.export("/x", interfaces: [Interface("org.example.Hang", methods: [Method("Hang", handler: .deferred { _, r in parked.withLock { $0.append(r) } })])])
        let connection = try pair.bus.connect()
        let outcome = Inbox<Result<[Value], DBusError>>()
        // No timeout of its own: with the default 25 s, a full run once parked the call only
        // after its NoReply had come, and the close then had nothing left to end.
        connection.call(
            MethodCall(destination: try BusName(pair.service.uniqueName), path: "/x", interface: "org.example.Hang", member: "Hang"),
            timeout: nil
        ) {
            outcome.put($0)
        }
        try await waitUntil("the call to be parked") { parked.value.count == 1 }
        connection.close()
        connection.close()
        let result = try await outcome.next()
        #expect(throws: DBusError.disconnected()) { try result.get() }
        parked.withLock { $0.removeAll() }
    }

    @Test func manyConnectionsInOneProcess() async throws {
        let bus = try await TestBus.start()
        let connections = try (0..<8).map { _ in try bus.connect() }
        defer { for connection in connections { connection.close() } }
        #expect(Set(connections.map(\.uniqueName)).count == 8)
        for (index, connection) in connections.enumerated() {
            let target = connections[(index + 1) % connections.count]
            _ = try await connection.call(MethodCall(destination: try BusName(target.uniqueName), path: "/", interface: .peer, member: "Ping"))
        }
    }
}
