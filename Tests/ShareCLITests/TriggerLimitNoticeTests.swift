// share browse tells the user, sanitized, when the broker refuses its trigger with LimitExceeded.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

/// A `LimitExceeded` reply to `ReportAttributionTrigger` means the trigger is lost (the broker
/// was looking at too many callers at once): `share browse` says so instead of losing it
/// silently, on stderr when it prints the page once and in the status line full-screen. The
/// broker is played by a connection of the test that owns its name and answers `LimitExceeded`
/// (the real broker answers so only under a burst of callers, and only to a `share` installed
/// beside it); `share` is the built executable, its page served by `TriggerPageProxy`.
@Suite("share browse and a trigger the broker refused")
struct TriggerLimitNoticeTests {
    static let page = "http://shop.example/checkout"
    static let trigger = "https://ads.example/.well-known/private-click-measurement/trigger-attribution/05/02"
    /// The broker's words, with an escape sequence that must not reach the terminal.
    static let refusal = "32 callers are being checked\u{1b}[2J already; try again"
    static let told = "The broker did not record a click measurement trigger: 32 callers are being checked already; try again"

    /// A bus whose broker answers every `ReportAttributionTrigger` with `LimitExceeded`; the
    /// bodies it got go to `calls`.
    final class RefusingBroker: Sendable {
        let bus: TestBus
        let connection: Connection
        let calls = Inbox<[Value]>()

        init() async throws {
            bus = try await TestBus.start()
            connection = try bus.connect()
            let calls = calls
            try connection.export(
                Broker1.objectPath,
                interfaces: [
                    Interface(
                        Broker1.interface,
                        methods: [
                            Broker1.reportAttributionTrigger.method(
                                .immediate { call in
                                    calls.put(call.body)
                                    throw DBusError(
                                        name: BrokerErrorName.limitExceeded.rawValue, message: TriggerLimitNoticeTests.refusal)
                                })
                        ])
                ])
            #expect(try await connection.requestName(Broker1.busName) == .primaryOwner)
        }

        deinit {
            connection.close()
            bus.stopInBackground()
        }
    }

    @Test("Printing once: one sanitized line on stderr, and the load goes on")
    func toldOnStandardError() async throws {
        let broker = try await RefusingBroker()
        let proxy = try await TriggerPageProxy(page: Self.page, trigger: Self.trigger)
        let run = try await ChildProcess.run(
            try BuiltProducts.executable("share"), ["--bus", broker.bus.address, "browse", Self.page],
            environment: proxy.environment(ProcessInfo.processInfo.environment))
        #expect(try await broker.calls.next("the report") == [.string(Self.trigger), .string(Self.page)])
        let lines = run.standardError.split(separator: "\n").filter { $0.contains("click measurement") }
        #expect(lines == ["share: " + Self.told[...]], "\(run.standardError)")
        // The load went on to the trigger URL, which the proxy refuses.
        #expect(run.standardError.contains("CONNECT"), "\(run.standardError)")
    }

    @Test("Full-screen: the status line says it")
    func toldInTheStatusLine() async throws {
        let broker = try await RefusingBroker()
        let proxy = try await TriggerPageProxy(page: Self.page, trigger: Self.trigger)
        var environment = proxy.environment(ProcessInfo.processInfo.environment)
        environment["TERM"] = "xterm-256color"
        let share = try BuiltProducts.executable("share")
        let terminal = try await TmuxTerminal(
            command: "\(share) --bus '\(broker.bus.address)' browse \(Self.page); sleep 60",
            environment: environment, columns: 200)
        #expect(try await broker.calls.next("the report") == [.string(Self.trigger), .string(Self.page)])
        try await terminal.waitForScreen("the notice") { $0.contains(Self.told) }
        try await terminal.send("q")
    }
}
