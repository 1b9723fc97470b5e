// One browser test's world: an X server, a private bus that activates activity-browser, the broker's seat, a loopback site.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

/// What a test plays against: a private `dbus-daemon` whose service directory activates the
/// built `activity-browser` (and the AT-SPI bus), an Xvfb display, a loopback web site, and
/// `broker`, a connection that owns `org.activitybroker.Broker1`: it calls `Open`, records the
/// `Event`s sent to it (`events`) and answers `Broker1.Share` itself, recording each call
/// (`shares`).
///
/// The browser exits when the bus goes away (GTK when the display goes), the site when its
/// stdin closes, so nothing outlives the fixture.
final class BrowserFixture: @unchecked Sendable {
    let xvfb: XvfbServer
    let bus: TestBus
    let broker: Connection
    let directory: String
    let site: ChildProcess
    let port: Int
    /// `Event(o handle, s name, a{sv} details)` signals received by the broker.
    let events = Inbox<IncomingSignal>()
    /// The bodies of the `Share` calls the broker received.
    let shares = Inbox<[Value]>()
    /// Where the user's content-blocker rule lists go.
    let blockers: String
    let toolEnvironment: [String: String]
    /// The file the recording system opener appends each URL to.
    let opened: String
    /// The browser's HOME; its download directory (`XDG_DOWNLOAD_DIR`, in `user-dirs.dirs`)
    /// is `downloads`, made (WebKit saves into it only if it exists), so that a test can see
    /// that nothing was saved there.
    let home: String
    var downloads: String { home + "/Downloads" }

    /// The URLs handed to the system opener so far.
    var openedURLs: [String] {
        (try? String(contentsOfFile: opened, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    enum Theme { case light, dark }

    /// - `ownsBrokerName`: false leaves `org.activitybroker.Broker1` to a real broker started
    ///   on `bus` (end-to-end tests); `broker` then owns nothing and answers no `Share`.
    /// - `activatesSheet`: the bus also activates the built `activity-sheet` (the real
    ///   broker's Action sheet, end to end).
    init(theme: Theme = .light, ownsBrokerName: Bool = true, activatesSheet: Bool = false) async throws {
        directory = try Self.makeDirectory()
        let services = directory + "/services"
        let config = directory + "/config/gtk-4.0"
        blockers = directory + "/data/activity-broker/content-blockers"
        home = directory + "/home"
        for path in [services, config, blockers, home + "/Downloads"] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        try "XDG_DOWNLOAD_DIR=\"$HOME/Downloads\"\n".write(
            toFile: directory + "/config/user-dirs.dirs", atomically: true, encoding: .utf8)
        let browser = try BuiltProducts.executable("activity-browser")
        // The system opener: records each URL it is given, one a line.
        opened = directory + "/opened"
        let opener = directory + "/opener"
        try "#!/bin/sh\necho \"$1\" >> '\(opened)'\n".write(toFile: opener, atomically: true, encoding: .utf8)
        chmod(opener, 0o755)
        try """
        [D-BUS Service]
        Name=\(Browser1.busName)
        Exec=\(browser) --idle-exit 0 --opener \(opener)

        """.write(toFile: services + "/\(Browser1.busName).service", atomically: true, encoding: .utf8)
        if activatesSheet {
            let sheet = try BuiltProducts.executable("activity-sheet")
            try """
            [D-BUS Service]
            Name=\(Sheet1.busName)
            Exec=\(sheet) --idle-exit 0

            """.write(toFile: services + "/\(Sheet1.busName).service", atomically: true, encoding: .utf8)
        }
        try FileManager.default.copyItem(
            atPath: "/usr/share/dbus-1/services/org.a11y.Bus.service",
            toPath: services + "/org.a11y.Bus.service")
        try "[Settings]\ngtk-application-prefer-dark-theme=\(theme == .dark ? 1 : 0)\n"
            .write(toFile: config + "/settings.ini", atomically: true, encoding: .utf8)

        (site, port) = try await Self.startSite(arguments: [])
        xvfb = try await XvfbServer.start()
        bus = try await TestBus.start(serviceDirectory: services)
        broker = try bus.connect()
        let environment: [String: String] = [
            "DISPLAY": xvfb.display,
            "HOME": home,
            // The lines a page can cause at will (dropped launches), which tests wait for.
            "ACTIVITY_BROWSER_DEBUG": "1",
            "GDK_BACKEND": "x11",
            "GSK_RENDERER": "cairo",
            "XDG_CONFIG_HOME": directory + "/config",
            "XDG_DATA_HOME": directory + "/data",
            "XDG_CACHE_HOME": directory + "/cache",
            "XDG_DATA_DIRS": directory + "/system-data:/usr/share",
            "LANG": "en_US.UTF-8",
            "GTK_THEME": "",
            "NO_AT_BRIDGE": "0",
        ]
        _ = try await broker.call(
            MethodCall(
                destination: .bus, path: "/org/freedesktop/DBus", interface: .bus,
                member: "UpdateActivationEnvironment", body: [.stringDict(environment)]))
        var tools = ProcessInfo.processInfo.environment
        tools["DISPLAY"] = xvfb.display
        tools["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        toolEnvironment = tools
        if ownsBrokerName { try await playBroker() }
    }

    /// Owns the broker's name, records `Event`s and answers `Share`, as the broker would.
    private func playBroker() async throws {
        let reply = try await broker.requestName(Broker1.busName, flags: .doNotQueue)
        #expect(reply == .primaryOwner)
        let events = events
        _ = broker.addMatch(Browser1.event.rule()) {
            events.put($0)
        }
        let shares = shares
        try broker.export(
            Broker1.objectPath,
            interfaces: [
                Interface(
                    Broker1.interface,
                    methods: [
                        Broker1.share.method(
                            .immediate { call in
                                shares.put(call.body)
                                return [.objectPath("/org/activitybroker/Broker1/job/1")]
                            })
                    ])
            ])
    }

    deinit {
        broker.close()
        // Stopping and reaping block: on a thread of its own, not the pool thread that
        // releases the fixture (`BackgroundCleanup`).
        let (bus, xvfb, site, directory) = (bus, xvfb, site, directory)
        BackgroundCleanup.run {
            bus.stop()
            xvfb.stop()
            site.closeStandardInput()
            _ = try? site.waitForExit(deadline: .seconds(5))
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    static var resources: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources")
    }

    /// Starts `site.py` (http, or https with `[certificate, key]`) and waits for its port.
    static func startSite(arguments: [String]) async throws -> (ChildProcess, Int) {
        let child = try ChildProcess(
            executable: "/usr/bin/python3",
            arguments: ["-u", resources.appendingPathComponent("site.py").path] + arguments,
            standardInput: .pipe)
        let line = try await offPool { try child.waitForLine { $0.hasPrefix("ready ") } }
        guard let port = Int(line.dropFirst("ready ".count)) else {
            throw MissingFileError(what: "a port in '\(line)'")
        }
        return (child, port)
    }

    private static func makeDirectory() throws -> String {
        var template = Array("/tmp/browser-test.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw MissingFileError(what: "a temporary directory") }
        return String(cString: made)
    }

    /// `http://127.0.0.1:PORT/path` on the loopback site.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    // MARK: Calling the browser

    static let handle = "/org/activitybroker/Broker1/session/1"

    /// Calls `Open` from `connection` (the broker by default).
    func open(
        _ url: String, handle: String = BrowserFixture.handle, options: [String: Value] = [:],
        from connection: Connection? = nil
    ) async throws(DBusError) {
        _ = try await (connection ?? broker).call(
            Browser1.call(
                Browser1.open,
                [
                    .objectPath(ObjectPath(stringLiteral: handle)), .string("org.example.Reader"),
                    .string(""),
                    .string(url), .vardict(options),
                ]), timeout: .seconds(60))
    }

    /// Opens the fixture site's `path`, takes the load's first event, and waits for the window
    /// to show `title`: the browser's pid and its window.
    func openWindow(_ path: String, title: String) async throws -> (pid: UInt32, window: String) {
        try await open(url(path))
        _ = try await nextEvent()
        let pid = try await browserPID()
        let window = try await window(pid: pid)
        try await waitForTitle(title, window: window)
        return (pid, window)
    }

    /// Calls `Close` as the broker.
    func close(handle: String = BrowserFixture.handle) async throws(DBusError) {
        _ = try await broker.call(
            Browser1.call(Browser1.close, [.objectPath(ObjectPath(stringLiteral: handle))]))
    }

    /// The next `Event`: its name and details.
    func nextEvent(deadline: Deadline = .seconds(60)) async throws -> (name: String, details: [String: Value])
    {
        let signal = try await events.next("a browser Event", deadline: deadline)
        #expect(signal.body.first?.objectPath?.rawValue == Self.handle)
        return (signal.body[1].string ?? "", signal.body[2].vardict ?? [:])
    }

    /// The pid of the activated browser service.
    func browserPID(deadline: Deadline = .seconds(30)) async throws -> UInt32 {
        var pid: UInt32 = 0
        try await waitUntil(
            "activity-browser to own its name", deadline: deadline, interval: .milliseconds(20)
        ) {
            pid = (try? await broker.unixProcessID(of: Browser1.busName.rawValue)) ?? 0
            return pid != 0
        }
        return pid
    }

    /// What the browser service logged (it inherits the bus daemon's stderr).
    var browserLog: String { bus.daemonOutput }

    // MARK: The display

    /// The X tools in this fixture's environment (TestSupport's `DisplayTools`).
    var display: DisplayTools { DisplayTools(environment: toolEnvironment) }

    /// Runs a tool against the display and the accessibility bus; throws unless it exits 0.
    @discardableResult
    func tool(_ executable: String, _ arguments: [String], deadline: Deadline = .seconds(30)) async throws
        -> String
    {
        try await display.run(executable, arguments, deadline: deadline)
    }

    typealias ToolError = DisplayTools.ToolError

    /// The X window of the browser's process, once it is mapped.
    func window(pid: UInt32) async throws -> String {
        try await display.windows(pid: pid).last!
    }

    /// Whether the process has a visible window now.
    func hasVisibleWindow(pid: UInt32) async throws -> Bool {
        try await display.hasVisibleWindow(pid: pid)
    }

    /// Focuses the window and types `keys` (xdotool key names).
    func press(_ keys: String..., window: String) async throws {
        try await display.press(keys, window: window, delay: 40)
    }

    /// Clicks at (x, y) inside the window.
    func click(window: String, x: Int, y: Int) async throws {
        try await tool(
            "xdotool",
            ["windowfocus", "--sync", window, "mousemove", "--window", window, "\(x)", "\(y)", "click", "1"])
    }

    func title(window: String) async throws -> String {
        try await tool("xdotool", ["getwindowname", window]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits until the window's title is `expected` (the page's title).
    func waitForTitle(_ expected: String, window: String, deadline: Deadline = .seconds(30)) async throws {
        var last = ""
        do {
            try await waitUntil("the title '\(expected)'", deadline: deadline, interval: .milliseconds(50)) {
                last = try await title(window: window)
                return last == expected
            }
        } catch {
            Issue.record("last title: '\(last)'")
            throw error
        }
    }

    /// The window's accessibility tree (`browser-tree.py tree`).
    func accessibleTree(pid: UInt32) async throws -> [String] {
        let run = try await ChildProcess.run(
            "/usr/bin/python3",
            [Self.resources.appendingPathComponent("browser-tree.py").path, "tree", "\(pid)"],
            environment: toolEnvironment, deadline: .seconds(30))
        guard run.termination == .exited(0) else { return [] }
        return run.standardOutput.split(separator: "\n").map(String.init)
    }

    /// Activates the push button `name` through AT-SPI.
    func pressButton(_ name: String, pid: UInt32) async throws {
        try await tool(
            "/usr/bin/python3",
            [Self.resources.appendingPathComponent("browser-tree.py").path, "press", "\(pid)", name])
    }

    func waitForTree(
        pid: UInt32, _ what: String, deadline: Deadline = .seconds(30), _ condition: ([String]) -> Bool
    ) async throws -> [String] {
        var tree: [String] = []
        do {
            try await waitUntil(what, deadline: deadline, interval: .milliseconds(100)) {
                tree = try await accessibleTree(pid: pid)
                return condition(tree)
            }
        } catch {
            Issue.record("last tree read: \(tree)")
            throw error
        }
        return tree
    }

    /// Writes a PNG of the window to `.build/screenshots/<name>.png` once the web content has
    /// been painted (WebKit paints a while after the load has finished: the web view's area,
    /// inside the window's 5-pixel frame and under the header bar, is no longer of one colour)
    /// and returns its path. The frame is left out of the measure: its grey edge alone made a
    /// blank page look painted.
    /// `drawn`, when given, must also hold for the picture (what the test waits to see).
    func screenshot(
        window: String, name: String, deadline: Deadline = .seconds(30),
        drawn: ((String) async throws -> Bool)? = nil
    ) async throws -> String {
        let path = try screenshotPath(name)
        var spread = 0.0
        do {
            try await waitUntil("the page to be painted", deadline: deadline, interval: .milliseconds(100)) {
                try await tool("import", ["-window", window, path])
                let output = try await tool(
                    "convert",
                    [
                        path, "-crop", "980x620+10+56", "+repage", "-colorspace", "gray", "-format",
                        "%[fx:standard_deviation]", "info:",
                    ])
                spread = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
                guard spread > 0.01 else { return false }
                return try await drawn?(path) ?? true
            }
        } catch {
            Issue.record("the content area stayed uniform (deviation \(spread)); log: \(browserLog)")
            throw error
        }
        return path
    }

    private func screenshotPath(_ name: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("\(name).png").path
    }

    /// The mean brightness (0 black … 1 white) of a region `WxH+X+Y` of an image.
    func meanBrightness(_ path: String, region: String? = nil) async throws -> Double {
        var arguments = [path]
        if let region { arguments += ["-crop", region, "+repage"] }
        arguments += ["-colorspace", "gray", "-format", "%[fx:mean]", "info:"]
        let output = try await tool("convert", arguments)
        return Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The share of an image's pixels that are `color` (within 15 %), 0 … 1.
    func share(of color: String, in path: String) async throws -> Double {
        let output = try await tool(
            "convert",
            [
                path, "-fuzz", "15%", "-fill", "black", "+opaque", color, "-fill", "white", "-opaque", color,
                "-colorspace", "gray", "-format", "%[fx:mean]", "info:",
            ])
        return Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The mean colour `#rrggbb` of a region of an image.
    func meanColor(_ path: String, region: String) async throws -> String {
        let output = try await tool(
            "convert",
            [path, "-crop", region, "+repage", "-scale", "1x1!", "-format", "%[hex:p{0,0}]", "info:"])
        return "#" + output.trimmingCharacters(in: .whitespacesAndNewlines).prefix(6).lowercased()
    }
}
