// A Show over 16 MB from a caller that is not the broker does not stop activity-sheet reading.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

/// activity-sheet asks the bus who owns the broker's name (`GetNameOwner`) before it knows the
/// caller may call it, and the call waits for that answer. The service stops reading its socket
/// while the received messages it keeps alive pass `IncomingLimits.bytes` (16 MB): had the
/// waiting call kept its message, the bus's answer would stay unread and every caller, the
/// broker included, would wait until the query timed out.
@Suite(.serialized) struct OversizedShowTests {
    @Test("A 17 MB Show from a stranger: Ping and the broker's Close are answered, the Show is AccessDenied")
    func oversizedShowFromAStrangerDoesNotStall() async throws {
        let fixture = try await SheetFixture()
        let ping = MethodCall(destination: Sheet1.busName, path: "/", interface: .peer, member: "Ping")
        // Started (activated) before the test proper, so that start-up is not what is timed.
        _ = try await fixture.broker.call(ping, timeout: .seconds(60))
        let stranger = try fixture.bus.connect()
        defer { stranger.close() }
        let refusal = Inbox<String?>()
        let body = SheetFixture.showBody(
            title: String(repeating: "t", count: 17 << 20),
            activities: [SheetFixture.activity("builtin.mail", "Mail", "share")])
        _ = stranger.call(Sheet1.call(Sheet1.show, body), timeout: .seconds(60)) { result in
            if case .failure(let error) = result { refusal.put(error.name) } else { refusal.put(nil) }
        }
        // Behind the huge call on the same connection, so the service handles it after the huge
        // call started its wait; then the broker's own call, which waits on the bus too. A
        // stalled service answers them only once its query times out (25 s), so 15 s tells the
        // two apart; 3 s, a bound on the machine's speed, ran out under load.
        _ = try await stranger.call(ping, timeout: .seconds(15))
        _ = try await fixture.broker.call(
            Sheet1.call(Sheet1.close, [.objectPath("/org/activitybroker/Broker1/sheet/9")]), timeout: .seconds(15))
        #expect(
            try await refusal.next("the refusal", deadline: .seconds(30)) == BrokerErrorName.accessDenied.rawValue)
        let pid = try await fixture.sheetPID()
        #expect(!(try await fixture.hasVisibleWindow(pid: pid)), "no window for a stranger")
    }
}
