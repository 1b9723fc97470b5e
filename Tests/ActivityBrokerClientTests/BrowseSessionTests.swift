// BrokerProxy.browse and BrowsingSession against the real broker and a recording browser service.
import ActivityBrokerClient
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct BrowseSessionTests {
    /// Records what the session told it, in order.
    final class Recorder: BrowsingSessionDelegate {
        let events = Inbox<String>()
        func browsingSession(_ session: BrowsingSession, didCompleteInitialLoad success: Bool) {
            events.put("completed \(success)")
        }
        func browsingSession(_ session: BrowsingSession, initialLoadDidRedirectTo url: URL) {
            events.put("redirected \(url.absoluteString)")
        }
        func browsingSessionWillOpenInBrowser(_ session: BrowsingSession) {
            events.put("will open in browser")
        }
        func browsingSessionDidFinish(_ session: BrowsingSession) { events.put("finished") }
    }

    static func start() async throws -> (BrokerHarness, RecordingBrowser, BrokerProxy) {
        let broker = try await BrokerHarness(bus: TestBus.start(), start: false)
        broker.extraEnvironment.withLock { $0["DISPLAY"] = ":77" }
        try await broker.start()
        let browser = try await RecordingBrowser(bus: broker.bus)
        return (
            broker, browser, BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        )
    }

    @Test func theDelegateHearsTheWindowsEventsInOrderAndFinishOnce() async throws {
        let (broker, browser, proxy) = try await Self.start()
        defer { broker.stopInBackground() }
        let recorder = Recorder()
        let configuration = BrowseConfiguration(
            dismissButtonStyle: .cancel, controlTint: TintColor("#0a84ff"), barCollapsingEnabled: false,
            excludedActivities: ["category:action"])
        let session = try await proxy.browse(
            url: URL(string: "https://example.org/start")!, configuration: configuration, delegate: recorder)
        let open = try await browser.opens.next("Open")
        #expect(open.url == "https://example.org/start")
        #expect(open.options["dismiss_button_style"] == .string("cancel"))
        #expect(open.options["control_tint"] == .string("#0a84ff"))
        #expect(open.options["bar_collapsing_enabled"] == .boolean(false))
        #expect(open.options["exclude"] == .stringArray(["category:action"]))
        try browser.send(
            "InitialLoadRedirected", details: ["url": .string("https://example.org/final")], for: open)
        try browser.send("InitialLoadCompleted", details: ["success": .boolean(true)], for: open)
        try browser.send("WillOpenInBrowser", for: open)
        try browser.send("Finished", for: open)
        await session.finished()
        try await recorder.events.waitForCount(4)
        #expect(
            recorder.events.items == [
                "redirected https://example.org/final", "completed true", "will open in browser", "finished",
            ])
    }

    @Test func closeClosesTheWindowAndFinishes() async throws {
        let (broker, browser, proxy) = try await Self.start()
        defer { broker.stopInBackground() }
        let recorder = Recorder()
        let session = try await proxy.browse(url: URL(string: "http://example.org/")!, delegate: recorder)
        let open = try await browser.opens.next("Open")
        try await session.close()
        #expect(try await browser.closes.next("Close") == open.handle)
        await session.finished()
        #expect(recorder.events.items == ["finished"])
        try await session.close()  // Already finished: nothing to do, no error.
    }

    /// Regression: closing the app's connection (or losing the bus) left `finished()` waiting
    /// forever and never told the delegate: the session's subscriptions went with the
    /// connection, and nothing finished the session.
    @Test func closingTheConnectionFinishesTheSession() async throws {
        let (broker, browser, proxy) = try await Self.start()
        defer { broker.stopInBackground() }
        let recorder = Recorder()
        let session = try await proxy.browse(url: URL(string: "https://example.org/")!, delegate: recorder)
        _ = try await browser.opens.next("Open")
        proxy.connection.close()
        let done = Inbox<Void>()
        let waiter = Task {
            await session.finished()
            done.put(())
        }
        defer { waiter.cancel() }
        try await done.next("finished() to return after the connection closed")
        #expect(recorder.events.items == ["finished"])
        try await session.close()  // Finished: nothing to close, no error.
    }

    /// Another peer's `Session1` signals, broadcast or sent to the app, are not the session's.
    @Test func anotherPeersSessionSignalsAreIgnored() async throws {
        let (broker, browser, proxy) = try await Self.start()
        defer { broker.stopInBackground() }
        let recorder = Recorder()
        let session = try await proxy.browse(url: URL(string: "https://example.org/")!, delegate: recorder)
        let open = try await browser.opens.next("Open")
        let path = try #require(session.path)
        let stranger = try broker.bus.connect()
        let app = try BusName(proxy.connection.uniqueName)
        let session1: InterfaceName = "org.activitybroker.Session1"
        try stranger.emit(Signal(path: path, interface: session1, member: "WillOpenInBrowser"))
        try stranger.emit(Signal(path: path, interface: session1, member: "Finished", destination: app))
        // The stranger's signals reach the app before its answer to this.
        _ = try await stranger.call(
            MethodCall(destination: app, path: "/", interface: .peer, member: "Ping"), autoStart: false)
        try browser.send("InitialLoadCompleted", details: ["success": .boolean(true)], for: open)
        try await recorder.events.waitForCount(1)
        #expect(recorder.events.items == ["completed true"])
    }

    @Test func refusedCallsThrowTypedErrors() async throws {
        let (broker, _, proxy) = try await Self.start()
        defer { broker.stopInBackground() }
        await #expect(throws: BrokerError.self) {
            try await proxy.browse(url: URL(string: "ftp://example.org/")!)
        }
        do {
            _ = try await proxy.browse(url: URL(string: "gopher://example.org/")!)
            Issue.record("Browse accepted gopher:")
        } catch {
            guard case .invalidArgument = error else { throw error }
        }
        try await proxy.prewarm([URL(string: "http://localhost/")!])
        do {
            try await proxy.prewarm((0..<17).map { URL(string: "https://h\($0).example/")! })
            Issue.record("Prewarm accepted 17 URLs")
        } catch {
            guard case .limitExceeded = error else { throw error }
        }
    }
}
