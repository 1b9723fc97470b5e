// Browse end to end: an app's BrokerProxy.browse, the real broker, the activated activity-browser, its events back to the app.
import ActivityBrokerClient
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

/// Records what the app's delegate hears, in order.
private final class RecordingDelegate: BrowsingSessionDelegate {
    let heard = Inbox<String>()

    func browsingSession(_ session: BrowsingSession, didCompleteInitialLoad success: Bool) {
        heard.put("completed \(success)")
    }
    func browsingSession(_ session: BrowsingSession, initialLoadDidRedirectTo url: URL) {
        heard.put("redirected \(url.absoluteString)")
    }
    func browsingSessionWillOpenInBrowser(_ session: BrowsingSession) { heard.put("will open in browser") }
    func browsingSessionDidFinish(_ session: BrowsingSession) { heard.put("finished") }
}

@Suite(.serialized) struct BrowseEndToEndTests {
    @Test func anAppBrowsesThroughTheRealBrokerAndHearsTheWindowsEvents() async throws {
        let fixture = try await BrowserFixture(ownsBrokerName: false)
        let harness = try await BrokerHarness(bus: fixture.bus, start: false)
        defer { harness.stopInBackground() }
        let display = fixture.xvfb.display
        harness.extraEnvironment.withLock { $0["DISPLAY"] = display }
        try await harness.start()
        let app = BrokerProxy(connection: try fixture.bus.connect(), address: fixture.bus.address)
        let delegate = RecordingDelegate()

        let session = try await app.browse(url: URL(string: fixture.url("/redirect"))!, delegate: delegate)
        #expect(session.path != nil)
        #expect(
            try await delegate.heard.next("the redirect", deadline: .seconds(60))
                == "redirected \(fixture.url("/page/b"))")
        #expect(try await delegate.heard.next("the first load", deadline: .seconds(60)) == "completed true")

        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        try await fixture.waitForTitle("Page B", window: window)
        try await fixture.press("ctrl+w", window: window)
        #expect(try await delegate.heard.next("the end", deadline: .seconds(30)) == "finished")
        #expect(fixture.events.count == 0, "the test's connection is not the broker: it hears nothing")
    }
}
