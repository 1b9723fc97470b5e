// The window's side of Private Click Measurement: AttributionTrigger for trigger redirects only, ClickActivated with a token.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

/// The test plays the broker (`BrowserFixture`): it calls `Open` and reads the `Event`s the
/// window sends it. The loopback site's `/shop` has an image redirected to
/// `https://source.example/.well-known/private-click-measurement/trigger-attribution/05`
/// (the host need not resolve: the redirect is seen before the connection), `/ordinary` an
/// image redirected to `/page/b`.
@Suite(.serialized) struct AttributionWindowTests {
    static let trigger = "https://source.example/.well-known/private-click-measurement/trigger-attribution/05"

    /// The events up to and including the first named `last`.
    private func events(
        _ fixture: BrowserFixture, through last: String, deadline: Deadline = .seconds(60)
    ) async throws -> [(name: String, details: [String: Value])] {
        var seen: [(name: String, details: [String: Value])] = []
        while true {
            let event = try await fixture.nextEvent(deadline: deadline)
            seen.append(event)
            if event.name == last { return seen }
        }
    }

    @Test func aSubresourceRedirectedToATriggerIsReportedWithThePage() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(fixture.url("/shop"))
        let seen = try await events(fixture, through: Browser1.EventName.attributionTrigger)
        let trigger = try #require(seen.last)
        #expect(trigger.details[Browser1.DetailKey.url]?.string == Self.trigger)
        #expect(trigger.details[Browser1.DetailKey.page]?.string == fixture.url("/shop"))
        #expect(trigger.details.count == 2)
        try await fixture.close()
        let rest = try await events(fixture, through: Browser1.EventName.finished)
        let all = (seen + rest).map(\.name)
        #expect(all.filter { $0 == Browser1.EventName.attributionTrigger }.count == 1, "\(all)")
        #expect(!all.contains(Browser1.EventName.clickActivated), "no token, no ClickActivated: \(all)")
    }

    @Test func aMainFrameRedirectedToATriggerIsReported() async throws {
        let fixture = try await BrowserFixture()
        let start = fixture.url("/redirect-to?" + Self.trigger)
        try await fixture.open(start)
        let seen = try await events(fixture, through: Browser1.EventName.attributionTrigger)
        #expect(seen.last?.details[Browser1.DetailKey.url]?.string == Self.trigger)
        #expect(seen.last?.details[Browser1.DetailKey.page]?.string == start, "the page the load began on")
        try await fixture.close()
        _ = try await events(fixture, through: Browser1.EventName.finished)
    }

    @Test func anOrdinaryRedirectTellsTheBrokerNothing() async throws {
        let fixture = try await BrowserFixture()
        // The main frame is redirected to /ordinary, whose image goes through /redirect.
        try await fixture.open(fixture.url("/redirect-to?/ordinary"))
        let loaded = try await events(fixture, through: Browser1.EventName.initialLoadCompleted)
        #expect(loaded.last?.details[Browser1.DetailKey.success]?.bool == true)
        #expect(loaded.map(\.name).contains(Browser1.EventName.initialLoadRedirected))
        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        try await fixture.waitForTitle("Ordinary", window: window)
        try await fixture.close()
        let all = (loaded + (try await events(fixture, through: Browser1.EventName.finished))).map(\.name)
        #expect(!all.contains(Browser1.EventName.attributionTrigger), "\(all)")
        #expect(all.last == Browser1.EventName.finished)
    }

    /// Without a window manager, GTK focuses the presented window itself (XSetInputFocus), so
    /// the window still becomes active: the proof is only as good as the window manager.
    @Test func withATokenAndNoWindowManagerTheWindowReportsItsActivation() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(
            fixture.url("/page/b"), options: [Browser1.OptionKey.activationToken: .string("test-token")])
        let seen = try await events(
            fixture, through: Browser1.EventName.clickActivated, deadline: .seconds(30))
        let activated = seen.last?.details[Browser1.DetailKey.activated]?.bool
        #expect(activated == true, "\(seen.map(\.name))")
        try await fixture.close()
        let rest = try await events(fixture, through: Browser1.EventName.finished).map(\.name)
        #expect(!rest.contains(Browser1.EventName.clickActivated), "sent once: \(rest)")
    }

    @Test func withATokenUnderOpenboxTheWindowBecomesActive() async throws {
        let fixture = try await BrowserFixture()
        let windowManager = try await fixture.startWindowManager(supporting: "_NET_ACTIVE_WINDOW")
        defer { fixture.stopWindowManager(windowManager) }
        try await fixture.open(
            fixture.url("/page/b"), options: [Browser1.OptionKey.activationToken: .string("test-token")])
        let seen = try await events(
            fixture, through: Browser1.EventName.clickActivated, deadline: .seconds(30))
        #expect(seen.last?.details[Browser1.DetailKey.activated]?.bool == true, "\(seen.map(\.name))")
        // The window manager's own record (_NET_ACTIVE_WINDOW) names the browser's window
        // (openbox may write it just after the window saw itself focused).
        let window = try await fixture.window(pid: try await fixture.browserPID())
        var active = ""
        try? await waitUntil(
            "openbox to record the browser's window as active", deadline: .after(.seconds(10)), interval: .milliseconds(50)
        ) {
            active = try await fixture.tool("xdotool", ["getactivewindow"]).trimmingCharacters(in: .whitespacesAndNewlines)
            return active == window
        }
        #expect(active == window)
        try await fixture.close()
        _ = try await events(fixture, through: Browser1.EventName.finished)
    }
}

/// The whole chain with the real broker and the real window: `Browse` with `event_attribution`
/// and a token stores the click (the window's `ClickActivated`), then a page on the destination
/// site whose image is redirected to the source's trigger URL turns it into a report (the
/// window's `AttributionTrigger`). Read from the broker's store file.
@Suite(.serialized) struct AttributionEndToEndTests {
    @Test func aBrowsedClickIsStoredAndATriggerOnTheDestinationSiteMakesAReport() async throws {
        let fixture = try await BrowserFixture(ownsBrokerName: false)
        let harness = try await BrokerHarness(bus: fixture.bus, start: false)
        defer { harness.stopInBackground() }
        let display = fixture.xvfb.display
        harness.extraEnvironment.withLock { $0["DISPLAY"] = display }
        // The broker's side of the gesture rule is AttributionTests'; here its window is wide
        // (a testing aid) so that a loaded machine cannot make the real window's proof late.
        try await harness.start(arguments: ["--gesture-window", "30"])
        let store = harness.root + "/state/activity-broker/attribution.json"
        func stored() -> String { (try? String(contentsOfFile: store, encoding: .utf8)) ?? "" }
        let app = try fixture.bus.connect()
        let attribution: [String: Value] = [
            "source_identifier": .byte(42), "destination_url": .string("https://127.0.0.1/"),
            "report_endpoint": .string("https://source.example"), "source_description": .string("Banner"),
            "purchaser": .string("Shop"),
        ]

        let click = try await app.call(
            Broker1.call(
                Broker1.browse,
                [
                    .string(""), .string(fixture.url("/page/b")),
                    .vardict([
                        Browser1.OptionKey.eventAttribution: .vardict(attribution),
                        Browser1.OptionKey.activationToken: .string("test-token"),
                    ]),
                ]))
        try await waitUntil("the click stored", deadline: .seconds(30), interval: .milliseconds(50)) {
            stored().contains(#""kind":"click""#)
        }
        #expect(
            stored().contains(
                #""source_site":"source.example","destination_site":"127.0.0.1","source_id":42"#),
            Comment(rawValue: stored()))
        let session = try #require(click.first?.objectPath)
        _ = try await app.call(Session1.close.call(Broker1.busName, path: session))

        _ = try await app.call(
            Broker1.call(Broker1.browse, [.string(""), .string(fixture.url("/shop")), .vardict([:])]))
        try await waitUntil("the report stored", deadline: .seconds(30), interval: .milliseconds(50)) {
            stored().contains(#""kind":"report""#)
        }
        #expect(stored().contains(#""source_id":42,"trigger_data":5"#), Comment(rawValue: stored()))
        #expect(!stored().contains("/shop") && !stored().contains("Banner"), "sites only")
    }
}
