// `share open URL` in a graphical session: the broker's browser window, waited for until it closes.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct OpenWindowTests {
    @Test func openInAGraphicalSessionShowsTheWindowAndWaitsForItToClose() async throws {
        let broker = try await BrokerHarness(
            bus: TestBus.start(), manifests: shareTestManifests, start: false)
        defer { broker.stopInBackground() }
        broker.extraEnvironment.withLock { $0["DISPLAY"] = ":77" }
        try await broker.start()
        let browser = try await RecordingBrowser(bus: broker.bus)
        let run = Task { try await broker.share(["open", "HTTPS://Example.ORG/window"]) }
        let open = try await browser.opens.next("Open")
        #expect(
            open.url == "https://example.org/window", "scheme and host lower-cased, as share browse loads it")
        #expect(open.options.isEmpty, "the window's defaults")
        try browser.send(Browser1.EventName.finished, for: open)
        let result = try await run.value
        #expect(result.status == 0, "\(result.errors)")
        #expect(browser.opens.items.count == 1)
        // Had share not waited, its leaving would have ended the session first ("its owner left").
        try await waitUntil("the session's end in the broker's log") {
            broker.log.contains("session 1: finished")
        }
        #expect(!broker.log.contains("its owner left"), "share waited for the window: \(broker.log)")
    }
}
