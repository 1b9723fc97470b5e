// Issue 16's figure: Browse → the browser window's first paint of a loopback page, against a bare WebKitWebView's.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport

/// Runs the browser-window measurement on a display, a bus and a web site of its own.
///
/// The page: a few lines of HTML served on 127.0.0.1 by `python3 -m http.server`. The floor:
/// `webkit-first-paint URL` (a bare WebKitWebView in a window) spawned `samples` times, from
/// just before the spawn to its first paint of the page, alternating with the cold samples. The window: a client's `Browse` call
/// on the real broker (release build, `DISPLAY` set) to the first paint of the page in the
/// window of the built `activity-browser`, which the bus starts by activation and which
/// reports the paint on a FIFO (`ACTIVITY_BROWSER_REPORT_PAINT`). Both report the same moment
/// (after the load finished, the page's second animation frame: see webkit-first-paint).
/// **Cold**: the browser service is not running, so the time includes its activation, as the
/// bare view's includes its start; it is stopped after each sample. **Warm**: the service
/// runs; each sample's window is closed (`Session1.Close`, then `Finished`) before the next.
/// One untimed sample of each first (caches). Both programs get the same display,
/// `GDK_BACKEND=x11`, `GSK_RENDERER` (cairo unless the bench's environment sets one),
/// `GTK_A11Y=none`, the same session bus and their own XDG data and cache directories.
final class BrowseRun {
    let samples: Int
    let scratch: String
    private(set) var figures = BrowseFigures()

    private static let browserName = Browser1.busName.rawValue

    init(samples: Int = 20, scratch: String) {
        self.samples = samples
        self.scratch = scratch
    }

    private func progress(_ text: String) {
        FileHandle.standardError.write(Data("  [browse] \(text)\n".utf8))
    }

    func run() throws {
        for directory in ["services", "site", "xdg/data", "xdg/cache", "xdg/config", "bare/data", "bare/cache"] {
            try FileManager.default.createDirectory(
                atPath: scratch + "/" + directory, withIntermediateDirectories: true)
        }
        try """
        <!doctype html><html><head><meta charset="utf-8"><title>Bench Page</title></head>
        <body><h1>A small page</h1><p>Served on the loopback interface for broker-bench.</p></body></html>

        """.write(toFile: scratch + "/site/index.html", atomically: true, encoding: .utf8)
        let site = try ChildProcess(
            executable: "/usr/bin/python3",
            arguments: ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", scratch + "/site"])
        defer { site.terminate() }
        let line = try site.waitForLine(deadline: .seconds(20)) { $0.hasPrefix("Serving HTTP") }
        guard let port = line.split(separator: " ").firstIndex(of: "port").map({ line.split(separator: " ")[$0 + 1] })
        else { throw BenchFailure("no port in '\(line)'") }
        let url = "http://127.0.0.1:\(port)/"

        let display = try XvfbDisplay()
        defer { display.stop() }
        let renderer = UIServiceLaunch.renderer
        figures.renderer = renderer
        let gtk = UIServiceLaunch.gtkEnvironment(display: display.display, renderer: renderer)
        let paints = try FrameReports(path: scratch + "/paints", word: "first-paint")
        try UIServiceLaunch.writeActivationFile(
            name: Self.browserName, executable: try BuiltProducts.executable("activity-browser"),
            variables: gtk.merging([
                "ACTIVITY_BROWSER_REPORT_PAINT": paints.path, "XDG_DATA_HOME": scratch + "/xdg/data",
                "XDG_CACHE_HOME": scratch + "/xdg/cache", "XDG_CONFIG_HOME": scratch + "/xdg/config",
            ]) { $1 },
            directory: scratch + "/services")
        let bus = try TestBus(serviceDirectory: scratch + "/services")
        defer { bus.stop() }

        let bareEnvironment = ProcessInfo.processInfo.environment.merging(gtk) { $1 }
            .merging([
                "DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_DATA_HOME": scratch + "/bare/data",
                "XDG_CACHE_HOME": scratch + "/bare/cache",
            ]) { $1 }

        let harness = try blocking { try await BrokerHarness(bus: bus, start: false) }
        defer { harness.stop() }
        harness.extraEnvironment.withLock { $0["DISPLAY"] = display.display }
        _ = try blocking { try await harness.start(deadline: .seconds(60)) }

        let client = try BlockingConnection(address: bus.address)
        try client.addMatch(
            MatchRule(
                sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                arg0: Self.browserName))
        let browse = try EncodedCall(Broker1.call(Broker1.browse, [.string(""), .string(url), .vardict([:])]))

        // The floor and the cold window alternate, so that the machine's load, which moves
        // over a minute, weighs on both alike.
        for index in 0...samples {
            let bare = try bareFirstPaint(url: url, environment: bareEnvironment)
            let (time, _) = try open(client, browse, paints)
            try stopBrowser(client)
            if index > 0 {
                figures.bareNanoseconds.append(bare)
                figures.coldNanoseconds.append(time)
            }
        }
        progress("bare WebKitWebView → first paint: \(figures.bareNanoseconds.map { $0 / 1_000_000 }) ms")
        progress("cold Browse → first paint: \(figures.coldNanoseconds.map { $0 / 1_000_000 }) ms")
        for index in 0...samples {
            let (time, session) = try open(client, browse, paints)
            try close(session, client)
            if index > 0 { figures.warmNanoseconds.append(time) }
        }
        progress("warm Browse → first paint: \(figures.warmNanoseconds.map { $0 / 1_000_000 }) ms")
        try stopBrowser(client)
    }

    /// One start of the bare web view: spawn → its first paint of `url`.
    private func bareFirstPaint(url: String, environment: [String: String]) throws -> UInt64 {
        let bare = try BuiltProducts.executable("webkit-first-paint")
        let start = monotonicNanoseconds()
        let child = try ChildProcess(executable: bare, arguments: [url], environment: environment)
        let line = try child.waitForLine(deadline: .seconds(60)) { $0.hasPrefix("first-paint ") }
        guard let paint = UInt64(line.dropFirst(12)) else {
            throw BenchFailure("webkit-first-paint said '\(line)'")
        }
        _ = try child.waitForExit(deadline: .seconds(10))
        return paint - start
    }

    /// Browse, then the window's first paint. Returns Browse → first paint and the session.
    private func open(_ client: BlockingConnection, _ browse: EncodedCall, _ paints: FrameReports) throws
        -> (UInt64, ObjectPath)
    {
        let start = monotonicNanoseconds()
        let reply = try client.call(browse, timeout: .seconds(60))
        guard let session = reply.body.first?.objectPath else {
            throw BenchFailure("Browse replied \(reply.body)")
        }
        let paint = try paints.next(deadline: .now + .seconds(60))
        return (paint - start, session)
    }

    /// `Session1.Close`; returns once the session's (unicast) `Finished` arrived.
    private func close(_ session: ObjectPath, _ client: BlockingConnection) throws {
        try client.call(try EncodedCall(Session1.close.call(Broker1.busName, path: session)))
        let deadline = ContinuousClock.now + .seconds(30)
        while let message = client.next(until: deadline) {
            if message.member == Session1.finished.name.rawValue, message.path == session.rawValue { return }
        }
        throw BenchFailure("no Finished for the session \(session.rawValue) within 30 s")
    }

    /// SIGTERM to the browser service; returns once the bus saw it leave.
    private func stopBrowser(_ client: BlockingConnection) throws {
        let reply = try client.call(
            try EncodedCall(
                MethodCall(
                    destination: .bus, path: "/org/freedesktop/DBus", interface: .bus,
                    member: "GetConnectionUnixProcessID", body: [.string(Self.browserName)])))
        guard let pid = reply.body.first?.uint32 else { throw BenchFailure("no pid for \(Self.browserName)") }
        kill(pid_t(pid), SIGTERM)
        let deadline = ContinuousClock.now + .seconds(30)
        while let message = client.next(until: deadline) {
            if message.member == "NameOwnerChanged", message.body.count == 3,
                message.body[0].string == Self.browserName, message.body[2].string == ""
            {
                return
            }
        }
        throw BenchFailure("the browser service did not leave the bus within 30 s")
    }
}
