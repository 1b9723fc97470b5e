// activity-browser end to end under Xvfb: activated on a private bus, driven by keys, read through AT-SPI and its events.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

/// One window per test, one test at a time: each starts its own X server, bus and site.
@Suite(.serialized) struct BrowserWindowUITests {
    @Test func anHTTPPageLoadsReportsCompletionAndShowsNotSecure() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(fixture.url("/page/a"))
        let event = try await fixture.nextEvent()
        #expect(event.name == Browser1.EventName.initialLoadCompleted)
        #expect(event.details[Browser1.DetailKey.success] == .boolean(true))

        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        try await fixture.waitForTitle("Page A", window: window)
        let tree = try await fixture.waitForTree(pid: pid, "the header bar") {
            $0.contains { $0.hasPrefix("label\tNot Secure") }
        }
        #expect(tree.contains { $0.hasPrefix("label\t127.0.0.1:\(fixture.port)") }, "the site, with its port")
        #expect(tree.contains { $0.hasPrefix("push button\tDone") })
        #expect(tree.contains("push button\tBack\tinsensitive"), "nothing to go back to yet")
        #expect(!tree.contains { $0.hasPrefix("push button\tReader") }, "no article on this page")
        let path = try await fixture.screenshot(window: window, name: "browser-http")
        #expect(try await fixture.meanBrightness(path) > 0.6)
        #expect(fixture.events.count == 1, "no redirect event for a direct load")
        // The browser's own website data and cache, never the app's.
        #expect(FileManager.default.fileExists(atPath: fixture.directory + "/data/activity-broker/web"))
        #expect(FileManager.default.fileExists(atPath: fixture.directory + "/cache/activity-broker/web"))
    }

    @Test func aRedirectedFirstLoadReportsTheFinalURL() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(fixture.url("/redirect"))
        let redirected = try await fixture.nextEvent()
        #expect(redirected.name == Browser1.EventName.initialLoadRedirected)
        #expect(redirected.details[Browser1.DetailKey.url] == .string(fixture.url("/page/b")))
        let completed = try await fixture.nextEvent()
        #expect(completed.name == Browser1.EventName.initialLoadCompleted)
        #expect(completed.details[Browser1.DetailKey.success] == .boolean(true))
    }

    @Test func followingALinkThenBackAndForwardChangeThePage() async throws {
        let fixture = try await BrowserFixture()
        let (pid, window) = try await fixture.openWindow("/page/a", title: "Page A")
        try await fixture.click(window: window, x: 400, y: 300)
        try await fixture.waitForTitle("Page B", window: window)
        _ = try await fixture.waitForTree(pid: pid, "Back enabled") { $0.contains("push button\tBack") }
        try await fixture.press("alt+Left", window: window)
        try await fixture.waitForTitle("Page A", window: window)
        _ = try await fixture.waitForTree(pid: pid, "Forward enabled") { $0.contains("push button\tForward") }
        try await fixture.press("alt+Right", window: window)
        try await fixture.waitForTitle("Page B", window: window)
        // Later loads are not the first: the app hears nothing of them.
        #expect(fixture.events.items.map { $0.body[1].string } == [Browser1.EventName.initialLoadCompleted])
    }

    @Test func escapeFinishesOnceAndNoOtherConnectionHearsTheEvents() async throws {
        let fixture = try await BrowserFixture()
        let observer = try fixture.bus.connect()
        defer { observer.close() }
        let overheard = Inbox<IncomingSignal>()
        _ = observer.addMatch(MatchRule(interface: Browser1.interface)) { overheard.put($0) }
        // The rule is in place once a call that follows it has come back.
        _ = try await observer.call(
            MethodCall(destination: .bus, path: "/org/freedesktop/DBus", interface: .bus, member: "GetId"))

        try await fixture.open(fixture.url("/page/a"))
        #expect(try await fixture.nextEvent().name == Browser1.EventName.initialLoadCompleted)
        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        try await fixture.press("Escape", window: window)
        #expect(try await fixture.nextEvent().name == Browser1.EventName.finished)
        try await waitUntil("the window to close", interval: .milliseconds(50)) {
            !(try await fixture.hasVisibleWindow(pid: pid))
        }
        // Closing what is already closed sends nothing more.
        try await fixture.close()
        _ = try await observer.call(
            MethodCall(
                destination: Browser1.busName, path: Browser1.objectPath,
                interface: "org.freedesktop.DBus.Peer",
                member: "Ping"))
        #expect(fixture.events.count == 2)
        #expect(overheard.count == 0, "Event is unicast to the broker: \(overheard.items.map(\.member))")
    }

    @Test func closeFromTheBrokerFinishesTheSession() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(fixture.url("/page/b"))
        #expect(try await fixture.nextEvent().name == Browser1.EventName.initialLoadCompleted)
        try await fixture.close()
        #expect(try await fixture.nextEvent().name == Browser1.EventName.finished)
    }

    @Test func onlyTheBrokerMayOpenAWindow() async throws {
        let fixture = try await BrowserFixture()
        let stranger = try fixture.bus.connect()
        defer { stranger.close() }
        await #expect(throws: DBusError.self) {
            try await fixture.open(fixture.url("/page/a"), from: stranger)
        }
        do {
            try await fixture.open(fixture.url("/page/a"), from: stranger)
        } catch {
            #expect(error.name == BrokerErrorName.accessDenied.rawValue)
        }
        do {
            try await fixture.open(fixture.url("/page/a"), options: ["bar_tint": .string("red")])
            Issue.record("a tint that is not #rrggbb was accepted")
        } catch {
            #expect(error.name == DBusError.invalidArgsName)
        }
        do {
            try await fixture.open("file:///etc/passwd")
            Issue.record("a file: URL was accepted")
        } catch {
            #expect(error.name == DBusError.invalidArgsName)
        }
    }

    @Test func aSelfSignedCertificateShowsTheErrorNotThePage() async throws {
        let fixture = try await BrowserFixture()
        let key = fixture.directory + "/key.pem"
        let certificate = fixture.directory + "/cert.pem"
        try await fixture.tool(
            "openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days",
                "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        let (tls, port) = try await BrowserFixture.startSite(arguments: [certificate, key])
        defer { tls.closeStandardInput() }
        try await fixture.open("https://127.0.0.1:\(port)/page/b")
        let event = try await fixture.nextEvent()
        #expect(event.name == Browser1.EventName.initialLoadCompleted)
        #expect(event.details[Browser1.DetailKey.success] == .boolean(false))
        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        try await fixture.waitForTitle("Certificate Error", window: window)
        let tree = try await fixture.waitForTree(pid: pid, "Not Secure") {
            $0.contains { $0.hasPrefix("label\tNot Secure") }
        }
        #expect(tree.contains("push button\tShare\tinsensitive"), "nothing to share from an error page")
        // The error page's red heading is drawn, where the page would have shown plain text.
        let path = try await fixture.screenshot(window: window, name: "browser-https-error") {
            try await fixture.share(of: "#c01c28", in: $0) > 0.001
        }
        #expect(try await fixture.share(of: "#c01c28", in: path) > 0.001)
    }

    @Test func theActionButtonAsksTheBrokerToShareThePage() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(
            fixture.url("/page/b"), options: ["exclude": .stringArray(["builtin.copy-link"])])
        _ = try await fixture.nextEvent()
        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        try await fixture.waitForTitle("Page B", window: window)
        try await fixture.pressButton("Share", pid: pid)
        let body = try await fixture.shares.next("a Share call", deadline: .seconds(30))
        #expect(body[0].string?.hasPrefix("x11:") == true, "the window as the sheet's parent: \(body[0])")
        let items = body[1].vardict ?? [:]
        #expect(items[ItemKey.url] == .string(fixture.url("/page/b")))
        #expect(items[ItemKey.title] == .string("Page B"))
        let options = body[2].vardict ?? [:]
        #expect(
            options[OptionKey.session] == .objectPath(ObjectPath(stringLiteral: BrowserFixture.handle)))
        #expect(options[OptionKey.exclude] == .stringArray(["builtin.copy-link"]))
    }

    @Test func openInBrowserTellsTheBrokerFirst() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(fixture.url("/page/b"))
        _ = try await fixture.nextEvent()
        let pid = try await fixture.browserPID()
        _ = try await fixture.window(pid: pid)
        try await fixture.pressButton("Open in Browser", pid: pid)
        #expect(try await fixture.nextEvent().name == Browser1.EventName.willOpenInBrowser)
        try await waitUntil("the system opener", interval: .milliseconds(50)) {
            fixture.openedURLs == [fixture.url("/page/b")]
        }
    }

    @Test func aMailtoLinkGoesToTheSystemOpenerAndThePageStays() async throws {
        let fixture = try await BrowserFixture()
        let (pid, window) = try await fixture.openWindow("/mail", title: "Mail Link")
        try await fixture.click(window: window, x: 400, y: 300)
        try await waitUntil("the system opener", interval: .milliseconds(50)) {
            fixture.openedURLs == ["mailto:someone@example.org"]
        }
        #expect(try await fixture.title(window: window) == "Mail Link")
    }

    @Test func aLinkToANewWindowOpensInTheSameOne() async throws {
        let fixture = try await BrowserFixture()
        let (pid, window) = try await fixture.openWindow("/blank", title: "New Window Link")
        try await fixture.click(window: window, x: 400, y: 300)
        try await fixture.waitForTitle("Page B", window: window)
        let windows = try await fixture.tool("xdotool", ["search", "--onlyvisible", "--pid", "\(pid)"])
        #expect(windows.split(separator: "\n").count == 1, "one window per session: \(windows)")
        #expect(fixture.openedURLs.isEmpty)
    }

    @Test func clickMeasurementReportsWhetherTheWindowBecameActive() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(
            fixture.url("/page/b"),
            options: [
                "activation_token": .string("test-token_TIME0"),
                "event_attribution": .vardict(["source_identifier": .byte(7)]),
            ])
        var names: [String] = []
        var activated: Value?
        while names.count < 2 {
            let event = try await fixture.nextEvent(deadline: .seconds(30))
            names.append(event.name)
            if event.name == Browser1.EventName.clickActivated {
                activated = event.details[Browser1.DetailKey.activated]
            }
        }
        #expect(Set(names) == [Browser1.EventName.initialLoadCompleted, Browser1.EventName.clickActivated])
        #expect(activated?.bool != nil, "ClickActivated carries a boolean: \(String(describing: activated))")
    }

    @Test func controlLShowsTheWholeAddress() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(fixture.url("/page/b?from=test"))
        _ = try await fixture.nextEvent()
        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        _ = try await fixture.waitForTree(pid: pid, "the site") {
            $0.contains { $0.hasPrefix("label\t127.0.0.1:\(fixture.port)") }
        }
        try await fixture.press("ctrl+l", window: window)
        _ = try await fixture.waitForTree(pid: pid, "the whole URL, focused") {
            $0.contains("label\t\(fixture.url("/page/b?from=test"))\tfocused")
        }
    }

    @Test func aContentBlockerBlocksTheScriptUntilItsFileIsRemoved() async throws {
        let fixture = try await BrowserFixture()
        let rules = fixture.blockers + "/test-rules.json"
        try #"[{"trigger": {"url-filter": "blocked\\.js"}, "action": {"type": "block"}}]"#
            .write(toFile: rules, atomically: true, encoding: .utf8)
        try await fixture.open(fixture.url("/script"))
        #expect(try await fixture.nextEvent().details[Browser1.DetailKey.success] == .boolean(true))
        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        // The script would set the title to "script ran".
        try await fixture.waitForTitle("no script", window: window)

        try FileManager.default.removeItem(atPath: rules)
        var title = ""
        try await waitUntil("the script to run again", deadline: .seconds(30), interval: .milliseconds(300)) {
            try await fixture.press("ctrl+r", window: window)
            title = try await fixture.title(window: window)
            return title == "script ran"
        }
        #expect(title == "script ran")
    }
}
