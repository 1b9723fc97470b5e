// Triggers from the terminal's browsing session: a real `share browse` is heard, any other caller of ReportAttributionTrigger is refused.
import ActivityBrokerInterface
import DBus
import Foundation
import SystemSupport
import TestSupport
import Testing

@testable import ActivityBroker

@Suite("Private Click Measurement triggers from share browse")
struct TerminalTriggerTests {
    static let page = "http://shop.example/checkout"

    /// A click made through `Browse` (the window played by `RecordingBrowser`, gesture proven),
    /// and a proxy whose page on the click's destination site redirects to its trigger.
    static func clicked(_ f: BrokerFixture) async throws -> (RecordingBrowser, TriggerPageProxy) {
        let browser = try await RecordingBrowser(bus: f.bus)
        _ = try await AttributionTests.clicked(f, browser)
        return (browser, try await TriggerPageProxy(page: page, trigger: AttributionTests.trigger))
    }

    /// `executable browse page` through `proxy` (no terminal: the page is loaded once). The
    /// load fails where the redirect led: the proxy refuses the trigger URL's `CONNECT`.
    static func browse(_ f: BrokerFixture, _ proxy: TriggerPageProxy, executable: String) async throws {
        let run = try await ChildProcess.run(
            executable, ["--bus", f.bus.address, "browse", page],
            environment: proxy.environment(f.brokerEnvironment))
        #expect(
            run.termination != .exited(0) && run.standardError.contains("CONNECT"), "\(run.standardError)")
    }

    @Test(
        "share browse follows a redirect to the trigger after a click made through Browse: one report, 24–48 h later"
    )
    func shareBrowseTriggers() async throws {
        let clock = ReportWindowClock()
        let (f, server) = try await clock.start()
        let (_, proxy) = try await Self.clicked(f)
        let triggered = try await clock.bracket {
            try await Self.browse(f, proxy, executable: try BuiltProducts.executable("share"))
            try await AttributionTests.waitForReport(f)
        }
        #expect(AttributionTests.stored(f).contains(#""trigger_data":5,"priority":2"#))
        try await ReportWindowClock.restartAndExpectReport(f, server, triggered: triggered)
        AttributionTests.expectPrivate(AttributionTests.stored(f) + f.log)
    }

    @Test(
        "Any other caller is refused with AccessDenied and nothing is stored: a plain client, a copy of share"
    )
    func othersAreRefused() async throws {
        let f = try await AttributionTests.start()
        let (_, proxy) = try await Self.clicked(f)
        let error = await f.errorName(
            Broker1.reportAttributionTrigger.name, [.string(AttributionTests.trigger), .string(Self.page)])
        #expect(error == BrokerFixture.errorPrefix + "AccessDenied")

        // The same bytes in another file are not the share installed beside the broker.
        let copy = f.root + "/copy/share"
        try FileManager.default.createDirectory(atPath: f.root + "/copy", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try BuiltProducts.executable("share"), toPath: copy)
        try await Self.browse(f, proxy, executable: copy)
        try await f.settle()
        #expect(
            f.log.components(separatedBy: "ReportAttributionTrigger from").count == 3, "both refusals logged")
        let text = AttributionTests.stored(f)
        #expect(
            text.contains(#""kind":"click""#) && !text.contains(#""kind":"report""#), Comment(rawValue: text))
        AttributionTests.expectPrivate(text + f.log)
    }

    @Test(
        "The caller check: a process runs the expected executable while its pidfd stands for it, and not after"
    )
    func callerCheck() async throws {
        let sleep = try ChildProcess(executable: "/bin/sleep", arguments: ["30"])
        let pid = UInt32(sleep.pid)
        let check = AttributionTriggerCaller(expectedExecutable: "/bin/sleep")
        #expect(check.runsExpectedExecutable(pid: pid))
        #expect(!AttributionTriggerCaller(expectedExecutable: "/bin/true").runsExpectedExecutable(pid: pid))
        let pidfd = try #require(SystemCalls.pidfdOpen(pid_t(pid)))
        defer { SystemCalls.closeQuietly(pidfd) }
        #expect(AttributionTriggerCaller.pidfd(pidfd, standsFor: pid))
        #expect(!AttributionTriggerCaller.pidfd(pidfd, standsFor: pid + 1))
        sleep.kill()
        _ = try await sleep.exit()
        #expect(!AttributionTriggerCaller.pidfd(pidfd, standsFor: pid), "reaped: the number is free")
        #expect(!check.runsExpectedExecutable(pid: pid))
    }
}
