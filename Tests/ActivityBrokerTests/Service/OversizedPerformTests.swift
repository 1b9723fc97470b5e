// A Perform over 16 MB that waits on the bus for an unknown name does not stop the broker reading.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

/// `Perform` of an activity whose bus name is not known asks the bus daemon for its activatable
/// names (`ListActivatableNames`) before it refuses, and the call waits for that answer. The
/// broker stops reading its socket while the received messages it keeps alive pass
/// `IncomingLimits.bytes` (16 MB): had the waiting call kept its message, the daemon's answer
/// would stay unread, and every peer would wait until the query timed out. The query's
/// timeout is made 120 s here (5 s by default): a stalled broker then holds the Pings longer
/// than their 30 s, while one that reads on answers them however loaded the machine is.
@Suite("An oversized Perform waiting on the bus does not stop the broker")
struct OversizedPerformTests {
    static let ping = MethodCall(destination: BrokerFixture.busName, path: "/", interface: .peer, member: "Ping")

    @Test("A 17 MB Perform of an activity with an unknown bus name: another client's Ping is answered, the Perform is InvalidArgument")
    func oversizedPerformWaitsWithoutStalling() async throws {
        let f = try await BrokerFixture(
            builtin: [
                "never.json": TestManifest.json(
                    id: "org.test.never", perform: #"{"dbus": {"name": "org.test.Never", "path": "/org/test/Never"}}"#)
            ], arguments: ["--bus-query-timeout", "120"])
        let other = try f.bus.connect()
        defer { other.close() }
        try await f.settle(on: other)
        let refusal = Inbox<String?>()
        _ = f.client.call(
            MethodCall(
                destination: BrokerFixture.busName, path: BrokerFixture.path, interface: BrokerFixture.interface,
                member: Broker1.perform.name,
                body: [
                    .string("org.test.never"),
                    .vardict(["url": .string("https://example.org/" + String(repeating: "a", count: 17 << 20))]),
                    .vardict([:]),
                ]),
            timeout: .seconds(60)
        ) { result in
            if case .failure(let error) = result { refusal.put(error.name) } else { refusal.put(nil) }
        }
        // Behind the huge call on the same connection, so the broker handles it after the huge
        // call started its wait; then another client's, sent during that wait. Were the call's
        // message held through the wait, each would wait the query's 120 s.
        _ = try await f.client.call(Self.ping, timeout: Deadline.standardWait)
        _ = try await other.call(Self.ping, timeout: Deadline.standardWait)
        #expect(try await refusal.next("the refusal", deadline: .seconds(30)) == BrokerFixture.errorPrefix + "InvalidArgument")
    }
}
