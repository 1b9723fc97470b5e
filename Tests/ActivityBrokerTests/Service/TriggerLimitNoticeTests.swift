// share browse tells the user, on stderr and sanitized, when the broker refuses its trigger with LimitExceeded.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

/// A `LimitExceeded` reply to `ReportAttributionTrigger` means the trigger is lost (the broker
/// was looking at too many callers): `share browse` says so instead of losing it silently.
/// The broker is played by a connection of the test that owns its name and answers
/// `LimitExceeded` (the real broker answers so only under a burst of callers); `share` is the
/// built executable, its page served by `TriggerPageProxy`.
@Suite("share browse and a trigger the broker refused")
struct TriggerLimitNoticeTests {
    @Test("LimitExceeded is one sanitized line on stderr, and the page load goes on")
    func limitExceededIsTold() async throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let broker = try bus.connect()
        defer { broker.close() }
        let calls = Inbox<[Value]>()
        try broker.export(
            Broker1.objectPath,
            interfaces: [
                Interface(
                    Broker1.interface,
                    methods: [
                        Broker1.reportAttributionTrigger.method(
                            .immediate { call in
                                calls.put(call.body)
                                throw DBusError(
                                    name: BrokerErrorName.limitExceeded.rawValue,
                                    message: "32 callers are being checked\u{1b}[2J already; try again")
                            })
                    ])
            ])
        #expect(try await broker.requestName(Broker1.busName) == .primaryOwner)
        let proxy = try await TriggerPageProxy(page: TerminalTriggerTests.page, trigger: AttributionTests.trigger)
        let run = try await ChildProcess.run(
            try BuiltProducts.executable("share"), ["--bus", bus.address, "browse", TerminalTriggerTests.page],
            environment: proxy.environment(ProcessInfo.processInfo.environment))
        #expect(try await calls.next("the report") == [.string(AttributionTests.trigger), .string(TerminalTriggerTests.page)])
        let told = run.standardError.split(separator: "\n").filter { $0.contains("click measurement") }
        // The escape sequence the broker's message carried is gone, whole.
        #expect(
            told == ["share: The broker did not record a click measurement trigger: 32 callers are being checked already; try again"],
            "\(run.standardError)")
        // The load went on to the trigger URL, which the proxy refuses.
        #expect(run.standardError.contains("CONNECT"), "\(run.standardError)")
    }
}
