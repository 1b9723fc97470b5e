// BrokerProxy.share and ProvidedActivity visibility against the real broker and a recording sheet service.
import ActivityBrokerClient
import DBus
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct ShareSheetTests {
    static let items = SharedItems(url: "https://example.org/client-share", title: "Client share")

    /// A broker in a graphical session with one `open` activity, and a sheet service.
    static func start() async throws -> (BrokerHarness, RecordingSheet) {
        let broker = try await BrokerHarness(
            bus: TestBus.start(),
            manifests: ["open.json": openManifest(id: "test.open", name: "Open", template: "https://o.example/?u={url}")],
            start: false)
        broker.extraEnvironment.withLock { $0["DISPLAY"] = ":77" }
        try await broker.start()
        return (broker, try await RecordingSheet(bus: broker.bus))
    }

    @Test func shareReturnsTheChosenActivitysOutcomeWithItsID() async throws {
        let (broker, sheet) = try await Self.start()
        defer { broker.stopInBackground() }
        let seen = Inbox<String?>()
        let connection = try broker.bus.connect()
        let provider = ActivityProvider(connection: connection)
        try await provider.start([
            ProvidedActivity(id: "test.app.own", name: "Own", category: "action", visibility: .owner) { request in
                seen.put(request.activationToken)
                return ActivityOutcome(state: .completed, results: ["saved": .boolean(true)])
            }
        ])
        let proxy = BrokerProxy(connection: connection, address: broker.bus.address)
        let stranger = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        #expect(try await proxy.activities(for: Self.items).map(\.id).contains("test.app.own"))
        #expect(!(try await stranger.activities(for: Self.items).map(\.id).contains("test.app.own")))
        #expect(try await stranger.registered().first { $0.id == "test.app.own" } == nil)

        let task = Task {
            try await proxy.share(items: Self.items, options: ShareOptions(exclude: ["test.open"], timeout: 60))
        }
        let show = try await sheet.shows.next("Show")
        #expect(show.activityIDs == ["test.app.own"])
        show.choose("test.app.own", token: "token-of-the-sheet")
        let outcome = try await task.value
        #expect(outcome.state == .completed)
        #expect(outcome.activityID == "test.app.own")
        #expect(outcome.results["saved"] == .boolean(true))
        #expect(try await seen.next("the provider's request") == "token-of-the-sheet")
    }

    @Test func dismissingAndCancellingEndTheShareCancelled() async throws {
        let (broker, sheet) = try await Self.start()
        defer { broker.stopInBackground() }
        let proxy = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        let dismissed = Task { try await proxy.share(items: Self.items) }
        try await sheet.shows.next("Show").dismiss()
        #expect(try await dismissed.value == .cancelled)

        // Cancelling the task closes the open sheet.
        let cancelled = Task { try await proxy.share(items: Self.items) }
        let show = try await sheet.shows.next("the second Show")
        cancelled.cancel()
        #expect(try await cancelled.value.state == .cancelled)
        try await sheet.waitForCalls([RecordingSheet.Call(member: "Close", handle: show.handle)])
    }

    @Test func shareErrorsAreTyped() async throws {
        let broker = try await BrokerHarness(bus: TestBus.start(), manifests: [:])
        defer { broker.stopInBackground() }
        let proxy = BrokerProxy(connection: try broker.bus.connect(), address: broker.bus.address)
        do {
            _ = try await proxy.share(items: Self.items)
            Issue.record("Share succeeded with nothing to offer")
        } catch {
            guard case .notApplicable = error else {
                Issue.record("expected notApplicable, got \(error)")
                return
            }
        }
        do {
            _ = try await proxy.share(parentWindow: "bogus", items: Self.items)
            Issue.record("Share accepted a bad parent window")
        } catch {
            guard case .invalidArgument = error else {
                Issue.record("expected invalidArgument, got \(error)")
                return
            }
        }
    }
}
