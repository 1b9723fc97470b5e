// ReportAttributionTrigger checks its arguments before it looks at its caller, and bounds how many callers it looks at at once.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

/// `ReportAttributionTrigger` asks the bus daemon about its caller before it answers. Its
/// arguments are checked first, so a malformed call (here 17 MB, over the 16 MB of received
/// messages at which the broker stops reading) is refused at once without a query and the
/// broker answers on; and at most `maxPendingChecks` callers are looked at at once, a bound
/// on a count every caller controls. That a call held through a wait does not stop the
/// broker reading, whatever its size, is `OversizedPerformTests` and `HeldCallTests`.
@Suite("ReportAttributionTrigger: malformed calls refused at once, callers looked at bounded")
struct OversizedTriggerTests {
    static let ping = MethodCall(destination: BrokerFixture.busName, path: "/", interface: .peer, member: "Ping")

    /// Sends `ReportAttributionTrigger(url, page)` from the fixture's client now (queued on its
    /// loop, so what the test sends next leaves after it); its error name, or nil, goes to `answers`.
    static func report(_ f: BrokerFixture, _ url: String, _ page: String, into answers: Inbox<String?>) {
        _ = f.client.call(
            MethodCall(
                destination: BrokerFixture.busName, path: BrokerFixture.path, interface: BrokerFixture.interface,
                member: Broker1.reportAttributionTrigger.name, body: [.string(url), .string(page)]),
            timeout: callTimeout
        ) { result in
            if case .failure(let error) = result { answers.put(error.name) } else { answers.put(nil) }
        }
    }

    /// Generous: 700 calls of 32 KB sent at once through a loaded bus (a full CI run on two
    /// cores took 88 s for them, and the last calls, sent at the start, timed out at 60 s). What
    /// the tests assert is the answers, not how soon they come.
    static let callTimeout: Duration = .seconds(300)

    @Test("A 17 MB ReportAttributionTrigger is InvalidArgument, and Pings behind it are answered at once")
    func oversizedTriggerIsRefusedAtOnce() async throws {
        // Were the call held through a query of the bus about its caller, the Pings would wait
        // that query's 120 s (5 s by default), well past their 30 s on any machine.
        let f = try await BrowseTests.start(display: false, arguments: ["--bus-query-timeout", "120"])
        let other = try f.bus.connect()
        try await f.settle(on: other)
        let refusal = Inbox<String?>()
        Self.report(
            f, "https://shop.example/" + String(repeating: "a", count: 17 << 20), TerminalTriggerTests.page,
            into: refusal)
        // Behind the huge call on the same connection, so the bus delivers it after it.
        _ = try await f.client.call(Self.ping, timeout: Deadline.standardWait)
        _ = try await other.call(Self.ping, timeout: Deadline.standardWait)
        #expect(try await refusal.next("the refusal") == BrokerFixture.errorPrefix + "InvalidArgument")
        #expect(f.log.contains("ReportAttributionTrigger from") == false, "refused before the caller is looked at")
    }

    @Test("700 well-formed 32 KB calls at once (22 MB): past 32 waiting the rest are LimitExceeded")
    func manyWaitingCallsAreBounded() async throws {
        let f = try await BrowseTests.start(display: false)
        let page = "https://shop.example/" + String(repeating: "a", count: 32 * 1024 - 32)
        let answers = Inbox<String?>()
        let calls = 700
        for _ in 0..<calls { Self.report(f, AttributionTests.trigger, page, into: answers) }
        var names: [String?] = []
        for _ in 0..<calls { names.append(try await answers.next("an answer", deadline: .after(Self.callTimeout))) }
        let limited = names.filter { $0 == BrokerFixture.errorPrefix + "LimitExceeded" }.count
        let denied = names.filter { $0 == BrokerFixture.errorPrefix + "AccessDenied" }.count
        #expect(limited > 0 && limited + denied == calls, "\(Set(names))")
        // Whether a query times out is not asserted: on a machine loaded enough, 32 queries
        // can take 5 s.
        try await f.settle()
    }
}
