// One sheet test's world: an X server, a private bus that activates activity-sheet, and the broker's seat on it.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

/// What a test plays against: a private `dbus-daemon` whose service directory activates the
/// built `activity-sheet` (and the AT-SPI bus, as a desktop session does), an Xvfb display
/// handed to activated services with `UpdateActivationEnvironment`, and `broker`, a connection
/// that owns `org.activitybroker.Broker1` and so may call the sheet.
///
/// The sheet exits when the bus goes away (and GTK exits when the display goes away), so
/// nothing outlives the fixture.
final class SheetFixture: @unchecked Sendable {
    let xvfb: XvfbServer
    let bus: TestBus
    let broker: Connection
    let directory: String
    /// The environment for tools that look at the display and the accessibility bus.
    let toolEnvironment: [String: String]

    /// The size of the Xvfb screen, in pixels.
    let screen: ScreenSize

    /// The sheet's look: light or dark (GTK's `gtk-application-prefer-dark-theme` setting).
    enum Theme { case light, dark }

    /// An X screen's size; `standard` is a laptop's, `small` a netbook's or an old projector's.
    struct ScreenSize: Sendable {
        let width: Int
        let height: Int
        static let standard = ScreenSize(width: 1280, height: 800)
        static let small = ScreenSize(width: 640, height: 480)
        static let svga = ScreenSize(width: 800, height: 600)
    }

    /// `ownsBrokerName`: false leaves `org.activitybroker.Broker1` free for a real broker
    /// started on `bus` (the end-to-end tests); `broker` is then a plain connection. `screen`:
    /// the Xvfb screen's size (one monitor of that size). `idleExit`: the service's
    /// `--idle-exit` seconds (0: it never exits on its own).
    init(
        theme: Theme = .light, language: String = "en_US.UTF-8", ownsBrokerName: Bool = true,
        screen: ScreenSize = .standard, idleExit: Int = 0
    ) async throws {
        self.screen = screen
        directory = try Self.makeDirectory()
        let services = directory + "/services"
        let config = directory + "/config/gtk-4.0"
        try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        let sheet = try BuiltProducts.executable("activity-sheet")
        try """
        [D-BUS Service]
        Name=\(Sheet1.busName)
        Exec=\(sheet) --idle-exit \(idleExit)

        """.write(toFile: services + "/\(Sheet1.busName).service", atomically: true, encoding: .utf8)
        // The accessibility bus, activated from this bus as in a desktop session.
        let a11y = "/usr/share/dbus-1/services/org.a11y.Bus.service"
        try FileManager.default.copyItem(atPath: a11y, toPath: services + "/org.a11y.Bus.service")
        // The calling app of `showBody`, as its desktop entry names it.
        let applications = directory + "/data/applications"
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Example Reader\nIcon=web-browser\nExec=true\n"
            .write(toFile: applications + "/org.example.Reader.desktop", atomically: true, encoding: .utf8)
        try "[Settings]\ngtk-application-prefer-dark-theme=\(theme == .dark ? 1 : 0)\n"
            .write(toFile: config + "/settings.ini", atomically: true, encoding: .utf8)

        xvfb = try await XvfbServer.start(width: screen.width, height: screen.height)
        bus = try await TestBus.start(serviceDirectory: services)
        broker = try bus.connect()
        if ownsBrokerName {
            let reply = try await broker.requestName(Broker1.busName, flags: .doNotQueue)
            #expect(reply == .primaryOwner)
        }
        let environment: [String: String] = [
            "DISPLAY": xvfb.display,
            "GDK_BACKEND": "x11",
            "GSK_RENDERER": "cairo",
            "XDG_CONFIG_HOME": directory + "/config",
            "XDG_DATA_HOME": directory + "/data",
            "XDG_CACHE_HOME": directory + "/cache",
            "LANG": language,
            "LC_ALL": "",
            "LC_MESSAGES": "",
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
    }

    deinit {
        broker.close()
        // Stopping blocks: on a thread of its own, not the pool thread that releases the
        // fixture (`BackgroundCleanup`).
        let (bus, xvfb, directory) = (bus, xvfb, directory)
        BackgroundCleanup.run {
            bus.stop()
            xvfb.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    private static func makeDirectory() throws -> String {
        var template = Array("/tmp/sheet-test.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw MissingFileError(what: "a temporary directory") }
        return String(cString: made)
    }

    // MARK: Calling the sheet

    /// An activity record as the broker sends it.
    static func activity(_ id: String, _ name: String, _ category: String, icon: String = "") -> [String:
        Value]
    {
        ["id": .string(id), "name": .string(name), "category": .string(category), "icon": .string(icon)]
    }

    /// The `Show` arguments.
    static func showBody(
        handle: String = "/org/activitybroker/Broker1/sheet/1",
        url: String = "https://www.example.org/news/today",
        title: String = "Today's News", activities: [[String: Value]], parent: String = "",
        appID: String = "org.example.Reader", options: [String: Value] = [:]
    ) -> [Value] {
        [
            .objectPath(ObjectPath(stringLiteral: handle)), .string(appID), .string(parent),
            .vardict(["url": .string(url), "title": .string(title)]), .vardictArray(activities),
            .vardict(options),
        ]
    }

    /// Calls `Show` from `connection` (the broker by default) and returns the pending reply.
    func show(_ body: [Value], from connection: Connection? = nil) -> Task<[Value], any Error> {
        let caller = connection ?? broker
        return Task {
            try await caller.call(Sheet1.call(Sheet1.show, body), timeout: .seconds(120))
        }
    }

    /// Calls `Update` or `Close` as the broker.
    func call(_ method: MethodSignature, _ body: [Value], from connection: Connection? = nil)
        async throws(DBusError)
    {
        _ = try await (connection ?? broker).call(Sheet1.call(method, body))
    }

    /// The pid of the activated sheet service (waits for the name to be owned).
    func sheetPID(deadline: Deadline = .seconds(30)) async throws -> UInt32 {
        var pid: UInt32 = 0
        try await waitUntil("activity-sheet to own its name", deadline: deadline, interval: .milliseconds(20))
        {
            pid = (try? await broker.unixProcessID(of: Sheet1.busName.rawValue)) ?? 0
            return pid != 0
        }
        return pid
    }

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

    /// The X window of the sheet's process, once it is mapped.
    func window(pid: UInt32) async throws -> String {
        try await display.windows(pid: pid).first!
    }

    /// Whether the process has a visible window now.
    func hasVisibleWindow(pid: UInt32) async throws -> Bool {
        try await display.hasVisibleWindow(pid: pid)
    }

    /// Focuses the window and types `keys` (xdotool key names).
    func press(_ keys: String..., window: String) async throws {
        try await display.press(keys, window: window, delay: 20)
    }

    /// Focuses the window and types the keys of `keys` (xdotool key names).
    func press(contentsOf keys: [String], window: String) async throws {
        try await display.press(keys, window: window, delay: 20)
    }

    /// Types text into the focused window.
    func type(_ text: String, window: String) async throws {
        try await tool("xdotool", ["windowfocus", "--sync", window, "type", "--delay", "20", text])
    }

    /// The window's title (`xdotool getwindowname`).
    func title(window: String) async throws -> String {
        try await tool("xdotool", ["getwindowname", window]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The sheet's accessibility tree, one `role<TAB>name` line per visible control, read
    /// through AT-SPI as a screen reader reads it.
    func accessibleTree(pid: UInt32) async throws -> [String] {
        try await sheetTreeLines(pid: pid).map(String.init)
    }

    /// The lines `scripts/sheet-tree.py PID ARGUMENTS` prints (none while AT-SPI does not see
    /// the sheet yet).
    func sheetTreeLines(pid: UInt32, _ arguments: [String] = []) async throws -> [Substring] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/sheet-tree.py").path
        let run = try await ChildProcess.run(
            "/usr/bin/python3", [script, "\(pid)"] + arguments, environment: toolEnvironment, deadline: .seconds(30))
        guard run.termination == .exited(0) else { return [] }
        return run.standardOutput.split(separator: "\n")
    }

    /// Reads with `read` until what it read satisfies `condition`, and returns it; on a
    /// timeout the last reading is recorded as an issue.
    func waitForReading<T>(
        _ what: String, deadline: Deadline, read: () async throws -> T, _ condition: (T) -> Bool
    ) async throws -> T {
        var last: T?
        do {
            try await waitUntil(what, deadline: deadline, interval: .milliseconds(100)) {
                let reading = try await read()
                last = reading
                return condition(reading)
            }
        } catch {
            Issue.record("last reading: \(last.map { "\($0)" } ?? "none")")
            throw error
        }
        return last!
    }

    /// Waits until the accessibility tree satisfies `condition` and returns it.
    func waitForTree(
        pid: UInt32, _ what: String, deadline: Deadline = .seconds(30), _ condition: ([String]) -> Bool
    ) async throws -> [String] {
        try await waitForReading(what, deadline: deadline, read: { try await accessibleTree(pid: pid) }, condition)
    }

    /// The names of the visible buttons in tree order.
    static func buttons(_ tree: [String]) -> [String] {
        tree.compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return fields.count >= 2 && fields[0] == "push button" ? String(fields[1]) : nil
        }
    }

    /// The name of the control with the keyboard focus, if any.
    static func focused(_ tree: [String]) -> String? {
        for line in tree {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if fields.count == 3, fields[2] == "focused" { return fields[1] }
        }
        return nil
    }

    /// Writes a PNG of the window (focused first, so the focus ring shows where keys go) to
    /// `.build/screenshots/<name>.png` and returns its path.
    func screenshot(window: String, pid: UInt32, name: String) async throws -> String {
        let path = try Self.screenshotPath(name)
        try await tool("xdotool", ["windowfocus", "--sync", window])
        _ = try await waitForTree(pid: pid, "a focused control") { Self.focused($0) != nil }
        try await tool("import", ["-window", window, path])
        return path
    }

    /// `.build/screenshots/<name>.png` (the directory made if missing).
    static func screenshotPath(_ name: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("\(name).png").path
    }

    /// The mean brightness of an image, 0 (black) to 1 (white), as ImageMagick computes it.
    func meanBrightness(_ path: String) async throws -> Double {
        let output = try await tool(
            "convert", [path, "-colorspace", "gray", "-format", "%[fx:mean]", "info:"])
        return Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}
