// Issue 15's figures: Share → the sheet's first frame against a bare GTK 4 window's, and the broker's RSS over Share/cancel cycles.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport

/// Runs the share-sheet measurements on a display and a bus of their own.
///
/// The floor: `gtk-first-frame` (a bare GTK 4 window) spawned `samples` times, from just
/// before the spawn to its first painted frame. The sheet: a client's `Share` call on the
/// real broker (release build, `DISPLAY` set) to the first painted frame of the window of the
/// built `activity-sheet`, which the bus starts by activation and which reports the frame on
/// a FIFO (`ACTIVITY_SHEET_REPORT_FRAME`). **Cold**: the sheet service is not running, so the
/// time includes its activation, as the bare window's includes its start; the service is
/// stopped after each sample. **Warm**: the service is already running (as after a first
/// share, until its idle exit), over `cycles` Share/cancel cycles, during which the broker's
/// (and the sheet's) VmRSS is read every quarter; the broker drops finished jobs after 1 s
/// (`--job-afterlife 1`) instead of 60, so that retained jobs do not hide or fake a leak.
/// Both GTK programs get the same display, `GDK_BACKEND=x11`, `GSK_RENDERER` (cairo unless
/// the bench's environment sets one), `GTK_A11Y=none` and the same session bus.
final class ShareRun {
    let cycles: Int
    let samples: Int
    let scratch: String
    private(set) var figures = ShareFigures()

    private static let sheetName = Sheet1.busName.rawValue

    init(cycles: Int, samples: Int = 9, scratch: String) {
        self.cycles = cycles
        self.samples = samples
        self.scratch = scratch
    }

    private func progress(_ text: String) {
        FileHandle.standardError.write(Data("  [share] \(text)\n".utf8))
    }

    func run() throws {
        try FileManager.default.createDirectory(
            atPath: scratch + "/services", withIntermediateDirectories: true)
        let display = try XvfbDisplay()
        defer { display.stop() }
        let renderer = UIServiceLaunch.renderer
        figures.renderer = renderer
        let gtk = UIServiceLaunch.gtkEnvironment(display: display.display, renderer: renderer)
        let frames = try FrameReports(path: scratch + "/frames")
        try UIServiceLaunch.writeActivationFile(
            name: Self.sheetName, executable: try BuiltProducts.executable("activity-sheet"),
            variables: gtk.merging(["ACTIVITY_SHEET_REPORT_FRAME": frames.path]) { $1 },
            directory: scratch + "/services")
        let bus = try TestBus(serviceDirectory: scratch + "/services")
        defer { bus.stop() }

        try measureFloor(
            environment: ProcessInfo.processInfo.environment.merging(gtk) { $1 }
                .merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 })

        let harness = try blocking {
            try await BrokerHarness(
                bus: bus,
                manifests: [
                    "open.json": openManifest(
                        id: "bench.open", name: "Open", template: "https://share.example/?u={url}")
                ],
                opener: { _ in "/bin/true" }, start: false)
        }
        defer { harness.stop() }
        harness.extraEnvironment.withLock { $0["DISPLAY"] = display.display }
        // Finished jobs stay exported for 60 s by default (API.md §6): all 1,000 would still be
        // there at the end. With a 1 s afterlife what the RSS shows is what the sheets leave.
        _ = try blocking {
            try await harness.start(arguments: ["--job-afterlife", "1"], deadline: .seconds(60))
        }

        let client = try BlockingConnection(address: bus.address)
        try client.addMatch(Job1.finished.rule())
        try client.addMatch(
            MatchRule(
                sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                arg0: Self.sheetName))
        let share = try EncodedCall(
            Broker1.call(
                Broker1.share,
                [
                    .string(""),
                    .vardict([
                        ItemKey.url: .string("https://www.example.org/news/today"),
                        ItemKey.title: .string("Today's News"),
                    ]),
                    .vardict([:]),
                ]))

        // Cold: one untimed (caches), then `samples` timed, the service stopped after each.
        for index in 0...samples {
            let time = try cycle(client, share, frames)
            try stopSheet(client)
            if index > 0 { figures.coldNanoseconds.append(time) }
        }
        progress("cold Share → first frame: \(figures.coldNanoseconds.map { $0 / 1_000_000 }) ms")

        // Warm: the service running; `cycles` Share/cancel cycles, RSS every quarter.
        _ = try cycle(client, share, frames)
        let sheetPID = pid_t(try pid(of: Self.sheetName, client))
        let brokerPID = harness.pid
        figures.rss.append(
            RSSPoint(
                cycles: 0, broker: BrokerLauncher.residentKilobytes(of: brokerPID),
                sheet: BrokerLauncher.residentKilobytes(of: sheetPID)))
        let quarter = max(1, cycles / 4)
        for index in 1...max(cycles, 1) where cycles > 0 {
            figures.warmNanoseconds.append(try cycle(client, share, frames))
            if index % quarter == 0 || index == cycles {
                figures.rss.append(
                    RSSPoint(
                        cycles: index, broker: BrokerLauncher.residentKilobytes(of: brokerPID),
                        sheet: BrokerLauncher.residentKilobytes(of: sheetPID)))
                progress(
                    "\(index) cycles: broker VmRSS \(figures.rss.last!.broker) kB, sheet \(figures.rss.last!.sheet) kB"
                )
            }
        }
        figures.cycles = cycles
        try stopSheet(client)
    }

    /// The bare window, once untimed and `samples` times timed.
    private func measureFloor(environment: [String: String]) throws {
        let bare = try BuiltProducts.executable("gtk-first-frame")
        for index in 0...samples {
            let start = monotonicNanoseconds()
            let child = try ChildProcess(executable: bare, environment: environment)
            let line = try child.waitForLine(deadline: .seconds(60)) { $0.hasPrefix("first-frame ") }
            guard let frame = UInt64(line.dropFirst(12)) else {
                throw BenchFailure("gtk-first-frame said '\(line)'")
            }
            _ = try child.waitForExit(deadline: .seconds(10))
            if index > 0 { figures.bareNanoseconds.append(frame - start) }
        }
        progress("bare GTK 4 window → first frame: \(figures.bareNanoseconds.map { $0 / 1_000_000 }) ms")
    }

    /// Share, the sheet's first frame, Cancel, Finished (cancelled). Returns Share → first frame.
    private func cycle(_ client: BlockingConnection, _ share: EncodedCall, _ frames: FrameReports) throws
        -> UInt64
    {
        let start = monotonicNanoseconds()
        let reply = try client.call(share)
        guard let job = reply.body.first?.objectPath else {
            throw BenchFailure("Share replied \(reply.body)")
        }
        let frame = try frames.next(deadline: .now + .seconds(60))
        try client.call(try EncodedCall(Job1.cancel.call(Broker1.busName, path: job)))
        let deadline = ContinuousClock.now + .seconds(30)
        while let message = client.next(until: deadline) {
            guard message.member == Job1.finished.name.rawValue, message.path == job.rawValue else {
                continue
            }
            let state = message.body.first?.string
            guard state == JobState.cancelled.rawValue else {
                throw BenchFailure("Share job ended \(state ?? "?")")
            }
            return frame - start
        }
        throw BenchFailure("no Finished for the Share job \(job.rawValue) within 30 s")
    }

    /// SIGTERM to the sheet service; returns once the bus saw it leave.
    private func stopSheet(_ client: BlockingConnection) throws {
        kill(pid_t(try pid(of: Self.sheetName, client)), SIGTERM)
        let deadline = ContinuousClock.now + .seconds(30)
        while let message = client.next(until: deadline) {
            if message.member == "NameOwnerChanged", message.body.count == 3,
                message.body[0].string == Self.sheetName,
                message.body[2].string == ""
            {
                return
            }
        }
        throw BenchFailure("the sheet service did not leave the bus within 30 s")
    }

    private func pid(of name: String, _ client: BlockingConnection) throws -> UInt32 {
        let reply = try client.call(
            try EncodedCall(
                MethodCall(
                    destination: .bus, path: "/org/freedesktop/DBus", interface: .bus,
                    member: "GetConnectionUnixProcessID", body: [.string(name)])))
        guard let pid = reply.body.first?.uint32 else { throw BenchFailure("no pid for \(name)") }
        return pid
    }
}
