// When and where a click measurement report goes after restarts: inside 24–48 h, and each endpoint once.
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Private Click Measurement delivery across restarts")
struct AttributionDeliveryTests {
    @Test(
        "A trigger at 23:58 UTC, a restart the next day: the report still goes out inside 24–48 h of the trigger"
    )
    func restartKeepsTheWindow() async throws {
        let clock = ReportWindowClock()
        let (f, server) = try await clock.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        let open = try await AttributionTests.clicked(f, browser)
        let triggered = try await clock.bracket {
            try AttributionTests.sendTrigger(browser, open)
            try await AttributionTests.waitForReport(f)
        }
        AttributionTests.expectPrivate(AttributionTests.stored(f))
        try await ReportWindowClock.restartAndExpectReport(f, server, triggered: triggered)
        AttributionTests.expectPrivate(AttributionTests.stored(f) + f.log)
    }

    @Test("One endpoint answers, the other fails once: the retry posts only to the one that failed")
    func retryOnlyWhereItFailed() async throws {
        let f = try await AttributionTests.start()
        let server = try await AttributionReportServer(
            directory: f.root + "/https", sites: AttributionReportTests.sites)
        try await AttributionTests.reported(f, try await RecordingBrowser(bus: f.bus))
        _ = try await f.stopBroker()

        // ads.example answers; shop.example leads to a closed port (connection refused).
        let overdue = ["--clock-offset", String(AttributionReportTests.overdue)]
        try await f.startBroker(
            arguments: overdue + server.brokerArguments(for: ["ads.example"])
                + ["--attribution-connect-to", "shop.example:443:127.0.0.1:1"])
        try await waitUntil("the first attempt recorded", deadline: .seconds(30)) {
            AttributionTests.stored(f).contains(#""attempts":1,"answered":["source"]"#)
        }
        #expect(server.requests.compactMap { $0["host"] as? String } == ["ads.example"])
        _ = try await f.stopBroker()

        try await f.startBroker(
            arguments: overdue + server.brokerArguments(for: AttributionReportTests.sites))
        // The report leaves the file before its POST (at most once): wait for the POST itself.
        try await waitUntil("the retry received and the report forgotten", deadline: .seconds(30)) {
            server.requests.count >= 2 && !AttributionTests.stored(f).contains(#""kind":"report""#)
        }
        try await f.settle()
        let hosts = server.requests.compactMap { $0["host"] as? String }
        #expect(hosts == ["ads.example", "shop.example"], "each endpoint once")
        #expect(server.requests.allSatisfy { $0["body"] as? String == AttributionReportTests.expectedBody })
    }
}
