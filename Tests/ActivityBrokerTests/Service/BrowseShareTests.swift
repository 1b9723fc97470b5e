// The browser window's Action button: Share with option session, on behalf of the session's owner.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

@Suite("Share from a browsing session")
struct BrowseShareTests {
    static let page = "https://example.org/page-in-the-window"
    static let error = BrokerFixture.errorPrefix

    /// A broker with the sheet and browser services, two built-in activities and an app (a
    /// provider connection) that registered an `owner` activity and opened a window.
    static func start() async throws -> (
        BrokerFixture, app: TestProvider, sheet: RecordingSheet, browser: RecordingBrowser,
        open: RecordingBrowser.Open
    ) {
        let f = try await BrokerFixture(start: false)
        f.extraEnvironment.withLock { $0["DISPLAY"] = ":77" }
        try f.write(TestManifest.json(id: "org.test.first"), to: "builtin/first.json")
        try f.write(TestManifest.json(id: "org.test.second"), to: "builtin/second.json")
        try await f.startBroker()
        let sheet = try await RecordingSheet(bus: f.bus)
        let browser = try await RecordingBrowser(bus: f.bus)
        let app = try TestProvider(bus: f.bus) { _ in .reply(state: "completed", results: [:]) }
        try await f.register("org.test.app.own", extra: ["visibility": .string("owner")], on: app.connection)
        _ = try await f.call(
            "Browse",
            [
                .string(""), .string("https://example.org/"),
                .vardict(["exclude": .stringArray(["org.test.first"])]),
            ],
            on: app.connection)
        let open = try await browser.opens.next("Open")
        f.sharedItems.withLock { _ = $0.insert(page) }
        return (f, app, sheet, browser, open)
    }

    static func share(_ f: BrokerFixture, handle: ObjectPath, on connection: Connection) async throws
        -> ObjectPath
    {
        let reply = try await f.call(
            "Share",
            [.string(""), .vardict(["url": .string(page)]), .vardict(["session": .objectPath(handle)])],
            on: connection)
        guard let job = reply.first?.objectPath else { throw DBusError.failed("Share returned \(reply)") }
        return job
    }

    @Test(
        "The sheet offers the session owner's owner activity, without the session's exclusions; the job is the browser's"
    )
    func shareOnBehalfOfTheOwner() async throws {
        let (f, app, sheet, browser, open) = try await Self.start()
        let appJobs = f.finishedSignals(on: app.connection)
        let browserJobs = f.finishedSignals(on: browser.connection)
        try await f.settle(on: app.connection)
        try await f.settle(on: browser.connection)

        let job = try await Self.share(f, handle: open.handle, on: browser.connection)
        let show = try await sheet.shows.next("Show")
        #expect(
            show.activityIDs.contains("org.test.app.own"), "the app's owner activity is offered in its window"
        )
        #expect(!show.activityIDs.contains("org.test.first"), "the session's exclude applies")
        #expect(show.activityIDs.contains("org.test.second"))
        #expect(show.items["url"] == .string(Self.page))
        show.choose("org.test.app.own")

        let end = try await f.finished(job, in: browserJobs)
        #expect(end.state == "completed")
        #expect(end.results["activity_id"] == .string("org.test.app.own"))
        #expect(try await app.calls.next("the app's Perform").items["url"] == .string(Self.page))
        #expect(
            await f.errorName(
                "Get", [.string(Job1.interface.rawValue), .string("State")], on: app.connection, path: job,
                interface: .properties) == Self.error + "AccessDenied",
            "the job is the browser's, not the app's")
        try await f.settle(on: app.connection)
        #expect(appJobs.items.isEmpty, "the app hears nothing of the share")
    }

    @Test("A completed share from the window counts as a use in the ranking")
    func shareCountsAsAUse() async throws {
        let (f, app, sheet, browser, open) = try await Self.start()
        let stranger = try f.bus.connect()
        let before = try await f.offered(Self.page, on: stranger)
        #expect(before == ["org.test.first", "org.test.second"])
        let browserJobs = f.finishedSignals(on: browser.connection)
        try await f.settle(on: browser.connection)
        let job = try await Self.share(f, handle: open.handle, on: browser.connection)
        try await sheet.shows.next("Show").choose("org.test.second")
        #expect(try await f.finished(job, in: browserJobs).state == "completed")
        #expect(try await f.offered(Self.page, on: stranger) == ["org.test.second", "org.test.first"])
        withExtendedLifetime(app) {}
    }

    @Test(
        "session: AccessDenied from the app itself, NotFound for a handle of no session, NotFound once the session ended"
    )
    func sessionOptionChecks() async throws {
        let (f, app, _, browser, open) = try await Self.start()
        let options: [String: Value] = ["session": .objectPath(open.handle)]
        let items: [String: Value] = ["url": .string(Self.page)]
        #expect(
            await f.errorName("Share", [.string(""), .vardict(items), .vardict(options)], on: app.connection)
                == Self.error + "AccessDenied")
        #expect(
            await f.errorName(
                "Share",
                [
                    .string(""), .vardict(items),
                    .vardict(["session": .objectPath("/org/activitybroker/Broker1/browser/0")]),
                ],
                on: browser.connection) == Self.error + "NotFound")
        try browser.send(Browser1.EventName.finished, for: open)
        try await waitUntil("the session to end") { f.log.contains("session 1: finished") }
        #expect(
            await f.errorName(
                "Share", [.string(""), .vardict(items), .vardict(options)], on: browser.connection)
                == Self.error + "NotFound")
    }
}
