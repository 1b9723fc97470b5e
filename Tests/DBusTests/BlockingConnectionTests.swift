// BlockingConnection: calls that block for their reply, sends read back with next, signals through AddMatch.
@testable import DBus
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct BlockingConnectionTests {
    /// A service with `Echo0(s) → s` and a method that always fails, plus a blocking client.
    final class Setup: @unchecked Sendable {
        let pair: BusPair
        let client: BlockingConnection
        init() throws {
            pair = try BusPair()
            try pair.service.export(
                "/echo",
                interfaces: [
                    echoInterface(["s"]),
                    Interface(
                        "org.example.Fail",
                        methods: [
                            Method("Fail", handler: .immediate { _ in throw DBusError(name: "org.example.Error.No", message: "never") })
                        ]),
                ])
            client = try BlockingConnection(address: pair.bus.address)
        }

        func call(_ interface: InterfaceName, _ member: MemberName, _ body: [Value] = []) throws -> EncodedCall {
            try EncodedCall(
                MethodCall(
                    destination: try BusName(pair.service.uniqueName), path: "/echo", interface: interface,
                    member: member, body: body))
        }
    }

    /// Regression: the wait dropped the part under a second (its last second became a loop of
    /// 1 ms polls) and multiplied seconds by 1000 unchecked (a far deadline trapped).
    @Test(
        "A wait becomes whole milliseconds rounded up, clamped to what poll takes",
        arguments: [
            (Duration.nanoseconds(1), Int32(1)), (.milliseconds(900), 900), (.milliseconds(1500), 1500),
            (.seconds(1) + .nanoseconds(1), 1001), (.seconds(Int64.max / 2), Int32.max),
        ])
    func waitsInMilliseconds(duration: Duration, milliseconds: Int32) {
        #expect(BlockingConnection.milliseconds(duration) == milliseconds)
    }

    @Test func anEncodedCallIsAnsweredEveryTimeItIsSent() throws {
        let setup = try Setup()
        let echo = try setup.call("org.example.Echo", "Echo0", [.string("hello")])
        for _ in 0..<3 {
            let reply = try setup.client.call(echo)
            #expect(reply.kind == .methodReturn)
            #expect(reply.body == [.string("hello")])
        }
        try setup.client.callDiscardingReply(echo)
    }

    @Test func anErrorReplyIsThrownWithItsName() throws {
        let setup = try Setup()
        let fail = try setup.call("org.example.Fail", "Fail")
        #expect(throws: DBusError(name: "org.example.Error.No", message: "never")) {
            try setup.client.call(fail)
        }
    }

    @Test func sentCallsAreAnsweredThroughNext() throws {
        let setup = try Setup()
        let echo = try setup.call("org.example.Echo", "Echo0", [.string("again")])
        let serials = [setup.client.send(echo), setup.client.send(echo)]
        setup.client.flush()
        #expect(serials[0] != serials[1], "the second send is a copy with its own serial")
        var replies: [UInt32] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while replies.count < 2, let message = setup.client.next(until: deadline) {
            if message.kind == .methodReturn { replies.append(message.replySerial) }
        }
        #expect(replies.sorted() == serials.sorted())
    }

    @Test func matchedSignalsArrive() throws {
        let setup = try Setup()
        try setup.client.addMatch(MatchRule(interface: "org.example.Signals", member: "Rang"))
        // The AddMatch reply came before this call's: the rule is in place at the bus.
        try setup.pair.service.emit(
            Signal(path: "/echo", interface: "org.example.Signals", member: "Rang", body: [.string("ding")]))
        let deadline = ContinuousClock.now + .seconds(10)
        var received: ReceivedMessage?
        while received == nil, let message = setup.client.next(until: deadline) {
            // The bus's own NameAcquired comes first, unicast to us, whatever our rules.
            if message.kind == .signal, message.member != "NameAcquired" { received = message }
        }
        #expect(received?.member == "Rang")
        #expect(received?.path == "/echo")
        #expect(received?.body == [.string("ding")])
    }
}
