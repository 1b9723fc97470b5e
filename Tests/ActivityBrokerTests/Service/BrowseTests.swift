// Broker1.Browse and Session1 against a recording browser service: Open, events to the owner alone, Close, endings.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

@testable import ActivityBroker

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Broker1.Browse and Session1")
struct BrowseTests {
    static let url = "https://example.org/article"
    static let error = BrokerFixture.errorPrefix
    static let session = Session1.interface
    typealias Event = Browser1.EventName

    /// A broker in a graphical session (DISPLAY set; nothing is drawn) with one `open` activity.
    static func start(display: Bool = true, arguments: [String] = []) async throws -> BrokerFixture {
        let f = try await BrokerFixture(start: false)
        if display { f.extraEnvironment.withLock { $0["DISPLAY"] = ":77" } }
        try f.write(
            TestManifest.json(
                id: "org.test.open", name: "Open Share",
                perform: #"{"open": "https://share.example/?u={url}"}"#),
            to: "builtin/open.json")
        try await f.startBroker(arguments: arguments)
        return f
    }

    /// `Browse` from `connection` (default: the fixture's client); the session's path.
    static func browse(
        _ f: BrokerFixture, url: String = url, parent: String = "", options: [String: Value] = [:],
        on connection: Connection? = nil
    ) async throws -> ObjectPath {
        let reply = try await f.call(
            "Browse", [.string(parent), .string(url), .vardict(options)], on: connection)
        guard let path = reply.first?.objectPath else { throw DBusError.failed("Browse returned \(reply)") }
        return path
    }

    static func browseError(
        _ f: BrokerFixture, url: String = url, parent: String = "", options: [String: Value] = [:]
    ) async -> String? {
        await f.errorName("Browse", [.string(parent), .string(url), .vardict(options)])
    }

    /// Every `Session1` signal delivered to `connection`.
    static func sessionSignals(_ f: BrokerFixture, on connection: Connection? = nil) -> Inbox<IncomingSignal>
    {
        let inbox = Inbox<IncomingSignal>()
        _ = (connection ?? f.client).addMatch(MatchRule(interface: Session1.interface)) {
            inbox.put($0)
        }
        return inbox
    }

    /// The members of the signals `inbox` holds for `path`, in order.
    static func members(_ inbox: Inbox<IncomingSignal>, _ path: ObjectPath) -> [String] {
        inbox.items.filter { $0.path == path }.map(\.member)
    }

    @Test(
        "Browse opens the window: Open gets the URL, the options without event_attribution, a fresh handle and the app id"
    )
    func browseCallsOpen() async throws {
        let f = try await Self.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        let attribution: [String: Value] = [
            "source_identifier": .byte(7), "destination_url": .string("https://shop.example.org/item"),
            "report_endpoint": .string("https://ads.example.net"), "source_description": .string("A banner"),
            "purchaser": .string("Shop"),
        ]
        let options: [String: Value] = [
            "dismiss_button_style": .string("close"), "control_tint": .string("#0A84ff"),
            "bar_tint": .string("#101010"), "enters_reader_if_available": .boolean(true),
            "bar_collapsing_enabled": .boolean(false), "exclude": .stringArray(["category:action"]),
            "activation_token": .string("token-1"), "event_attribution": .vardict(attribution),
        ]
        let path = try await Self.browse(f, parent: "x11:3a00007", options: options)
        #expect(path.rawValue.hasPrefix("/org/activitybroker/Broker1/session/"))
        #expect(
            path.rawValue.count > "/org/activitybroker/Broker1/session/".count + 30, "an unguessable token")
        let open = try await browser.opens.next("Open")
        #expect(open.url == Self.url)
        #expect(open.parentWindow == "x11:3a00007")
        #expect(open.handle.rawValue.hasPrefix("/org/activitybroker/Broker1/"))
        #expect(open.handle != path, "the window's handle is not the app's session path")
        #expect(open.appID == CallerApplication.id(ofProcess: UInt32(getpid())))
        var expected = options
        expected["event_attribution"] = nil
        #expect(open.options == expected)
        #expect(!f.log.contains(Self.url), "the broker does not log the URL browsed")
    }

    @Test(
        "Events reach the owner as Session1 signals: InitialLoadRedirected and InitialLoadCompleted once, WillOpenInBrowser, Finished once, then the object is gone"
    )
    func eventsReachTheOwner() async throws {
        let f = try await Self.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        let signals = Self.sessionSignals(f)
        try await f.settle()
        let path = try await Self.browse(f)
        let open = try await browser.opens.next("Open")

        // Details of the wrong type are dropped without using up the first load.
        try browser.send(Event.initialLoadCompleted, details: ["success": .string("yes")], for: open)
        try browser.send(Event.initialLoadRedirected, details: ["url": .boolean(true)], for: open)
        try browser.send("SomethingElse", for: open)
        try browser.send(
            Event.initialLoadRedirected, details: ["url": .string("https://example.org/final")], for: open)
        try browser.send(Event.initialLoadCompleted, details: ["success": .boolean(true)], for: open)
        // Not the first load any more: neither is passed on again.
        try browser.send(
            Event.initialLoadRedirected, details: ["url": .string("https://example.org/later")], for: open)
        try browser.send(Event.initialLoadCompleted, details: ["success": .boolean(false)], for: open)
        try browser.send(Event.clickActivated, details: ["activated": .boolean(true)], for: open)
        try browser.send(Event.willOpenInBrowser, for: open)
        try browser.send(Event.finished, for: open)
        try await waitUntil("Finished") { Self.members(signals, path).contains("Finished") }
        try browser.send(Event.finished, for: open)
        try await f.settle()

        let mine = signals.items.filter { $0.path == path }
        #expect(
            mine.map(\.member) == [
                "InitialLoadRedirected", "InitialLoadCompleted", "WillOpenInBrowser", "Finished",
            ])
        #expect(mine[0].body == [.string("https://example.org/final")])
        #expect(mine[1].body == [.boolean(true)])
        #expect(mine.allSatisfy { $0.destination == f.client.uniqueName }, "unicast to the owner")
        #expect(
            await f.errorName("Close", path: path, interface: Self.session) == DBusError.unknownObjectName,
            "the session object is gone after Finished")
        #expect(browser.closes.items.isEmpty, "a window that finished is not closed again")
    }

    @Test("The session object introspects as Session1 and is not listed under the broker's object")
    func sessionIntrospection() async throws {
        let f = try await Self.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        defer { withExtendedLifetime(browser) {} }
        let path = try await Self.browse(f)
        let xml = try await f.call("Introspect", path: path, interface: .introspectable).first?.string ?? ""
        for fragment in [
            #"<interface name="org.activitybroker.Session1">"#, #"<method name="Close">"#,
            #"<signal name="InitialLoadCompleted">"#, #"<arg name="success" type="b""#,
            #"<signal name="InitialLoadRedirected">"#, #"<signal name="WillOpenInBrowser">"#,
            #"<signal name="Finished">"#,
        ] {
            #expect(xml.contains(fragment), "\(fragment) missing in \(xml)")
        }
        #expect(!xml.contains("<property"), "a session has no properties")
        let broker = try await f.call("Introspect", interface: .introspectable).first?.string ?? ""
        #expect(!broker.contains(#"<node name="session""#), "sessions are unlisted: \(broker)")
    }

    @Test("A second connection watching Session1 signals receives none of the owner's")
    func observerReceivesNothing() async throws {
        let f = try await Self.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        let observer = try f.bus.connect()
        let mine = Self.sessionSignals(f)
        let theirs = Self.sessionSignals(f, on: observer)
        try await f.settle()
        try await f.settle(on: observer)
        let path = try await Self.browse(f)
        let open = try await browser.opens.next("Open")
        try browser.send(Event.initialLoadCompleted, details: ["success": .boolean(true)], for: open)
        try browser.send(Event.willOpenInBrowser, for: open)
        try browser.send(Event.finished, for: open)
        try await waitUntil("Finished") { Self.members(mine, path).contains("Finished") }
        try await f.settle(on: observer)
        #expect(Self.members(mine, path) == ["InitialLoadCompleted", "WillOpenInBrowser", "Finished"])
        #expect(theirs.items.isEmpty, "\(theirs.items.map(\.member))")
    }

    @Test("Event signals from a connection that does not own org.activitybroker.Browser are ignored")
    func impostorEventsAreIgnored() async throws {
        let f = try await Self.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        let impostor = try f.bus.connect()
        let signals = Self.sessionSignals(f)
        try await f.settle()
        let path = try await Self.browse(f)
        let open = try await browser.opens.next("Open")
        for (name, details) in [
            (Event.initialLoadRedirected, ["url": Value.string("https://evil.example/")]),
            (Event.initialLoadCompleted, ["success": .boolean(false)]), (Event.finished, [:]),
        ] {
            try RecordingBrowser.emit(
                on: impostor, to: open.sender, handle: open.handle, name: name, details: details)
        }
        _ = try await impostor.call(
            MethodCall(destination: try BusName(open.sender), path: "/", interface: .peer, member: "Ping"))
        try await f.settle()
        #expect(Self.members(signals, path).isEmpty)
        // The session still works with the real browser.
        try browser.send(Event.initialLoadCompleted, details: ["success": .boolean(true)], for: open)
        try await waitUntil("InitialLoadCompleted") { !Self.members(signals, path).isEmpty }
        #expect(signals.items.first { $0.path == path }?.body == [.boolean(true)])
    }

    @Test("Close: AccessDenied for a stranger; the owner's closes the window and gets Finished once")
    func closeIsTheOwners() async throws {
        let f = try await Self.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        let stranger = try f.bus.connect()
        let signals = Self.sessionSignals(f)
        try await f.settle()
        let path = try await Self.browse(f)
        let open = try await browser.opens.next("Open")
        #expect(
            await f.errorName("Close", on: stranger, path: path, interface: Self.session) == Self.error
                + "AccessDenied")
        #expect(browser.closes.items.isEmpty)
        try await f.call("Close", path: path, interface: Self.session)
        #expect(try await browser.closes.next("Browser1.Close") == open.handle)
        try await waitUntil("Finished") { Self.members(signals, path).contains("Finished") }
        try await f.settle()
        #expect(Self.members(signals, path) == ["Finished"])
    }

    @Test("The owner leaving the bus closes its window")
    func ownerLeavingClosesTheWindow() async throws {
        let f = try await Self.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        let app = try f.bus.connect()
        _ = try await Self.browse(f, on: app)
        let open = try await browser.opens.next("Open")
        app.close()
        #expect(try await browser.closes.next("Browser1.Close") == open.handle)
        try await waitUntil("the log line") { f.log.contains("its owner left") }
    }

    @Test("The browser service leaving the bus ends the session with Finished")
    func browserLeavingFinishesTheSession() async throws {
        let f = try await Self.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        let signals = Self.sessionSignals(f)
        try await f.settle()
        let path = try await Self.browse(f)
        _ = try await browser.opens.next("Open")
        browser.close()
        try await waitUntil("Finished") { Self.members(signals, path) == ["Finished"] }
        #expect(
            await f.errorName("Close", path: path, interface: Self.session) == DBusError.unknownObjectName)
    }

    @Test("A browser that fails Open ends the session with Finished")
    func failedOpenFinishesTheSession() async throws {
        let f = try await Self.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        browser.openError.value = "org.freedesktop.DBus.Error.Failed"
        let signals = Self.sessionSignals(f)
        try await f.settle()
        let path = try await Self.browse(f)
        try await waitUntil("Finished") { Self.members(signals, path) == ["Finished"] }
        #expect(browser.opens.items.isEmpty)
    }

    @Test("InvalidArgument before any window: not http(s), bad options, bad event_attribution")
    func invalidArguments() async throws {
        let f = try await Self.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        for url in [
            "ftp://example.org/file", "mailto:a@example.org", "javascript:alert(1)", "example.org",
            "https://",
        ] {
            #expect(await Self.browseError(f, url: url) == Self.error + "InvalidArgument", "\(url)")
        }
        let good: [String: Value] = [
            "source_identifier": .byte(1), "destination_url": .string("https://www.example.org/"),
            "report_endpoint": .string("https://ads.example.net/"), "source_description": .string("ad"),
            "purchaser": .string("someone"),
        ]
        func attribution(_ change: (inout [String: Value]) -> Void) -> [String: Value] {
            var fields = good
            change(&fields)
            return ["event_attribution": .vardict(fields)]
        }
        let bad: [[String: Value]] = [
            ["dismiss_button_style": .string("ok")], ["control_tint": .string("blue")],
            ["bar_tint": .string("#12345")], ["control_tint": .string("#12345g")], ["bar_tint": .uint32(1)],
            ["exclude": .stringArray(["category:nothing"])], ["locale": .string("de")],
            ["session": .objectPath("/")],
            attribution { $0["source_identifier"] = .uint32(1) },
            attribution { $0["destination_url"] = .string("http://www.example.org/") },
            attribution { $0["destination_url"] = .string("https://example.com/") },
            attribution { $0["report_endpoint"] = .string("ftp://ads.example.net/") },
            attribution { $0["source_description"] = .string(String(repeating: "x", count: 257)) },
            attribution { $0["purchaser"] = nil }, attribution { $0["extra"] = .string("") },
        ]
        for options in bad {
            #expect(
                await Self.browseError(f, options: options) == Self.error + "InvalidArgument", "\(options)")
        }
        #expect(await Self.browseError(f, parent: "x11:zz") == Self.error + "InvalidArgument")
        try await f.settle()
        #expect(browser.opens.items.isEmpty, "no window for a refused call")
        // The same attribution, well formed, is accepted (same site: www.example.org and example.org).
        _ = try await Self.browse(f, options: attribution { _ in })
        #expect(try await browser.opens.next("Open").options["event_attribution"] == nil)
    }

    @Test("LimitExceeded beyond 16 open sessions of one connection; a finished one frees its place")
    func sessionLimit() async throws {
        let f = try await Self.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        for _ in 0..<16 { _ = try await Self.browse(f) }
        #expect(await Self.browseError(f) == Self.error + "LimitExceeded")
        let other = try f.bus.connect()
        _ = try await Self.browse(f, on: other)
        // Whichever Open came first: the windows' app ids are read concurrently, off the loop
        // (CallerApplication), so the Opens need not come in the sessions' order.
        let first = try await browser.opens.next("Open")
        try browser.send(Event.finished, for: first)
        try await waitUntil("the session to end") { f.log.contains(": finished") }
        _ = try await Self.browse(f)
    }

    @Test("Unavailable without DISPLAY or WAYLAND_DISPLAY, and without a browser service")
    func unavailable() async throws {
        let f = try await Self.start(display: false)
        let browser = try await RecordingBrowser(bus: f.bus)
        #expect(await Self.browseError(f) == Self.error + "Unavailable")
        try await f.settle()
        #expect(browser.opens.items.isEmpty)

        let g = try await Self.start()
        #expect(
            await Self.browseError(g) == Self.error + "Unavailable",
            "no org.activitybroker.Browser on the bus")
    }

    @Test("Browse starts the browser service by D-Bus activation and takes its events")
    func browseActivatesTheBrowser() async throws {
        let f = try await BrokerFixture(start: false, serviceDirectory: true)
        f.extraEnvironment.withLock { $0["DISPLAY"] = ":77" }
        // The "browser" the bus starts says so, then waits while the test serves the name.
        try f.write(
            """
            #!/bin/sh
            : > \(f.output("started"))
            i=0
            while [ ! -e \(f.output("done")) ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done

            """, to: "bin/browser-helper", mode: 0o755)
        try f.write(
            "[D-BUS Service]\nName=org.activitybroker.Browser\nExec=\(f.root)/bin/browser-helper\n",
            to: "services/org.activitybroker.Browser.service")
        defer { try? f.write("", to: "out/done") }
        try await f.startBroker()
        let signals = Self.sessionSignals(f)
        try await f.settle()
        let path = try await Self.browse(f)
        try await waitUntil("the bus to start the browser") { f.read(f.output("started")) != nil }
        let browser = try await RecordingBrowser(bus: f.bus)
        let open = try await browser.opens.next("the Open the activation queued")
        try browser.send(Event.initialLoadCompleted, details: ["success": .boolean(true)], for: open)
        try await waitUntil("InitialLoadCompleted") {
            Self.members(signals, path) == ["InitialLoadCompleted"]
        }
    }

    @Test("SIGTERM closes open windows and tells their owners Finished")
    func shutdownClosesWindows() async throws {
        let f = try await Self.start()
        let browser = try await RecordingBrowser(bus: f.bus)
        let signals = Self.sessionSignals(f)
        try await f.settle()
        let path = try await Self.browse(f)
        let open = try await browser.opens.next("Open")
        #expect(try await f.stopBroker() == .exited(0))
        #expect(try await browser.closes.next("Browser1.Close") == open.handle)
        try await waitUntil("Finished") { Self.members(signals, path) == ["Finished"] }
    }
}
