// A handler that holds a large call while it waits does not stop its connection reading.
import DBus
import Foundation
import TestSupport
import Testing

/// libdbus stops reading a connection while the received messages still alive pass
/// `IncomingLimits.bytes` (16 MB). A deferred handler waits (on another peer, on a user) with
/// its `Responder`; were the responder to keep the received message, one call over 16 MB held
/// through the wait would leave every later message unread, the awaited answer included.
@Suite("A held call does not stop the connection reading")
struct HeldCallTests {
    /// `Hold(s)` parks its responder in `parked` and answers nothing until the test does.
    static func serveHold(_ pair: BusPair, parked: Locked<[Responder]>) throws {
        let hold = Method(
            "Hold", in: [Argument("payload", "s")], out: [Argument("length", "u")],
            handler: .deferred { _, responder in parked.withLock { $0.append(responder) } })
        try pair.service.export("/test/Held", interfaces: [Interface("org.example.Held", methods: [hold])])
    }

    static func holdCall(_ pair: BusPair, _ payload: String) throws -> MethodCall {
        MethodCall(
            destination: try BusName(pair.service.uniqueName), path: "/test/Held", interface: "org.example.Held",
            member: "Hold", body: [.string(payload)])
    }

    @Test("Two 17 MB calls held unanswered: another client's Ping is answered, then both get their replies")
    func heldLargeCallsLeaveReadingOn() async throws {
        let pair = try await BusPair.start()
        let parked = Locked<[Responder]>([])
        try Self.serveHold(pair, parked: parked)
        let outcomes = Inbox<Result<[Value], DBusError>>()
        let payload = String(repeating: "x", count: 17 << 20)
        for _ in 0..<2 {
            pair.client.call(try Self.holdCall(pair, payload), timeout: .seconds(60)) { outcomes.put($0) }
        }
        try await waitUntil("both calls to be held", deadline: .seconds(30)) { parked.value.count == 2 }
        // 34 MB held: on a connection that kept the messages, this Ping would never be read.
        let other = try pair.bus.connect()
        defer { other.close() }
        _ = try await other.call(
            MethodCall(destination: try BusName(pair.service.uniqueName), path: "/", interface: .peer, member: "Ping"),
            timeout: Deadline.standardWait)
        // Replies still reach their callers, and each its own: one a value, one an error.
        let responders = parked.value
        responders[0].reply([.uint32(7)])
        responders[1].fail(DBusError(name: "org.example.Error.Held", message: "let go"))
        var values: [[Value]] = []
        var errors: [DBusError] = []
        for _ in 0..<2 {
            switch try await outcomes.next("a held call's reply") {
            case .success(let reply): values.append(reply)
            case .failure(let error): errors.append(error)
            }
        }
        #expect(values == [[.uint32(7)]])
        #expect(errors.map(\.name) == ["org.example.Error.Held"] && errors.map(\.message) == ["let go"])
        parked.withLock { $0.removeAll() }
    }
}
