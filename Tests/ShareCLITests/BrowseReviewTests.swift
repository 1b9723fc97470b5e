// Regressions from the review of share browse and share's output (address bar, keys, titles, pipes, exits).
import ActivityBrokerInterface
import DBus
import Foundation
import Glibc
import TestSupport
import Testing

@Suite(.serialized, .timeLimit(.minutes(3))) struct BrowseReviewTests {
    static let longTitle = "Huge " + String(repeating: "title ", count: 2_000)
    static let longQuery = String(repeating: "q", count: 33 * 1024)
    static let pages = [
        "a.html": "<title>Page A</title><p>Some text.</p>",
        "long-title.html": "<title>\(longTitle)</title><p>A page whose title is 12 KB.</p>",
        "to-long-url.html": "<title>Links</title><a href=\"/a.html?q=\(longQuery)\">Long</a>",
    ]

    /// A world whose broker also offers Sleeper, an action that runs until it is cancelled.
    static func sleeperWorld() async throws -> BrowseTerminalTests.World {
        try await BrowseTerminalTests.world(extraManifests: [
            "sleeper.json": shareTestManifests["sleeper.json"]!
        ])
    }

    static func browse(
        _ url: String, world: BrowseTerminalTests.World, columns: Int = 100, rows: Int = 30
    ) async throws -> TmuxTerminal {
        let share = try BuiltProducts.executable("share")
        return try await TmuxTerminal(
            command: "\(share) browse '\(url)'; echo EXIT=$? > \(world.root)/exit.tmp;"
                + " mv \(world.root)/exit.tmp \(world.root)/exit; sleep 60",
            environment: world.environment, columns: columns, rows: rows)
    }

    /// Regression (item 1): the address bar was never clipped; on a narrow terminal a long
    /// host wrapped, and the title drew over the registrable domain on the next row.
    @Test func aLongHostCannotPushTheSiteOffTheAddressBar() async throws {
        let world = try await BrowseTerminalTests.world()
        let site = try await LoopbackSite(pages: Self.pages)
        // curl resolves every *.localhost name to the loopback address.
        let host = "accounts.google.com.verify-7f3a.session-check.attacker-example.localhost"
        let terminal = try await Self.browse("http://\(host):\(site.port)/a.html", world: world, columns: 50)
        let screen = try await terminal.waitForScreen("the page") { $0.contains("Page A") }
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows[0].hasSuffix("attacker-example.localhost:\(site.port)"), "\(screen)")
        #expect(rows[0].contains("…"), "\(screen)")
        #expect(rows[1].hasPrefix("Page A"), "the title has a row of its own: \(screen)")
        try await terminal.send("q")
        #expect(try await BrowseHardeningTests.exitStatus(world) == "EXIT=0\n")
    }

    /// A browse session on Page A whose Action sheet has started the Sleeper activity, its
    /// process running; the site is returned to keep it serving.
    static func sleeperRunningFromTheActionSheet() async throws -> (BrowseTerminalTests.World, LoopbackSite, TmuxTerminal) {
        let world = try await Self.sleeperWorld()
        let site = try await LoopbackSite(pages: Self.pages)
        let terminal = try await Self.browse(site.url("a.html"), world: world)
        try await terminal.waitForScreen("the page") { $0.contains("Page A") }
        try await terminal.send("a")
        try await terminal.waitForScreen("the Action sheet") { $0.contains("Sleeper") }
        try await terminal.send("End", "Enter")  // actions by name: Open in Browser, Sleeper
        try await terminal.waitForScreen("the activity running") { $0.contains("Sleeper… Esc cancels") }
        try await waitUntil("the activity's process") {
            FileManager.default.fileExists(atPath: world.root + "/sleeper.pid")
        }
        return (world, site, terminal)
    }

    /// Regression (item 2): while an activity from the Action sheet ran, no key was read: q,
    /// Esc and Ctrl-C did nothing until the job's timeout.
    @Test func escCancelsAnActivityRunningFromTheActionSheet() async throws {
        let (world, site, terminal) = try await Self.sleeperRunningFromTheActionSheet()
        defer { withExtendedLifetime(site) {} }
        try await terminal.send("Escape")
        try await terminal.waitForScreen("the cancel") { $0.contains("Cancelled: Sleeper") }
        try await waitUntil("the broker to log the cancel") {
            world.broker.log.contains("test.sleeper cancelled")
        }
        try await terminal.send("q")
        #expect(try await BrowseHardeningTests.exitStatus(world) == "EXIT=0\n")
    }

    @Test func ctrlCCancelsARunningActivityAndEndsTheSessionWith130() async throws {
        let (world, site, terminal) = try await Self.sleeperRunningFromTheActionSheet()
        defer { withExtendedLifetime(site) {} }
        try await terminal.send("C-c")
        #expect(try await BrowseHardeningTests.exitStatus(world) == "EXIT=130\n")
        try await waitUntil("the broker to log the cancel") {
            world.broker.log.contains("test.sleeper cancelled")
        }
    }

    /// Regression (item 3): a `<title>` over the broker's 4 KiB made the Action sheet fail, and
    /// it said the broker was not reachable.
    @Test func aPageWithAHugeTitleCanBeShared() async throws {
        let world = try await BrowseTerminalTests.world()
        let site = try await LoopbackSite(pages: Self.pages)
        let terminal = try await Self.browse(site.url("long-title.html"), world: world)
        try await terminal.waitForScreen("the page") { $0.contains("Huge title") }
        try await terminal.send("a")
        let sheet = try await terminal.waitForScreen("the Action sheet") {
            $0.contains("Telegram") || $0.contains("not reachable") || $0.contains("refused")
        }
        #expect(sheet.contains("Open in Browser"), "\(sheet)")
        try await terminal.send("Escape")
        try await terminal.send("q")
        #expect(try await BrowseHardeningTests.exitStatus(world) == "EXIT=0\n")
    }

    /// Regression (item 3): a broker that answered with an error was reported as "not reachable".
    @Test func aBrokerThatRefusesThePageIsNotCalledUnreachable() async throws {
        let world = try await BrowseTerminalTests.world()
        let site = try await LoopbackSite(pages: Self.pages)
        let terminal = try await Self.browse(site.url("to-long-url.html"), world: world)
        try await terminal.waitForScreen("the page") { $0.contains("1. Long") }
        try await terminal.send("1", "Enter")
        try await terminal.waitForScreen("page A") { $0.contains("Page A") }
        try await terminal.send("a")
        let screen = try await terminal.waitForScreen("the refusal") {
            $0.contains("refused this page") || $0.contains("not reachable")
        }
        #expect(screen.contains("refused this page"), "\(screen)")
        try await terminal.send("q")
        #expect(try await BrowseHardeningTests.exitStatus(world) == "EXIT=0\n")
    }

    /// Regression (item 7): a resize during a load was not redrawn until the load ended.
    @Test func aResizeDuringALoadIsRedrawn() async throws {
        let world = try await BrowseTerminalTests.world()
        let silent = try SilentPort()
        let terminal = try await Self.browse("http://127.0.0.1:\(silent.port)/", world: world, columns: 60)
        try await terminal.waitForScreen("the load") { $0.contains("q or Esc stops") }
        try await terminal.tmux(["resize-window", "-x", "100", "-y", "30"])
        let rule = String(repeating: "─", count: 99)
        // Well before the load's 20 s timeout, after which the old loop drew anyway.
        try await terminal.waitForScreen("the redraw at the new width", deadline: .seconds(10)) {
            $0.contains(rule) && $0.contains("q or Esc stops")
        }
        try await terminal.send("C-c")
        #expect(try await BrowseHardeningTests.exitStatus(world) == "EXIT=130\n")
    }

    /// Regression (item 7): Ctrl-Z in the page did nothing (raw mode makes it a byte).
    @Test func ctrlZSuspendsTheSessionAndFgRedrawsIt() async throws {
        let world = try await BrowseTerminalTests.world()
        let site = try await LoopbackSite(pages: Self.pages)
        let share = try BuiltProducts.executable("share")
        // An interactive shell, for job control: it reports the stop, and `fg` continues.
        let terminal = try await TmuxTerminal(
            command: "PS1='$ ' bash --norc --noprofile -i", environment: world.environment)
        try await terminal.waitForScreen("the prompt") { $0.contains("$") }
        try await terminal.send("\(share) browse \(site.url("a.html"))", "Enter")
        try await terminal.waitForScreen("the page") { $0.contains("Page A") && $0.contains("[Done]") }
        try await terminal.send("C-z")
        try await terminal.waitForScreen("the stopped job") { $0.contains("Stopped") }
        try await terminal.send("fg", "Enter")
        try await terminal.waitForScreen("the page again") { $0.contains("Page A") && $0.contains("[Done]") }
        try await terminal.send("q")
        // Typed before share left, the command's letters would be keys of the page.
        try await terminal.waitForScreen("the shell") { !$0.contains("[Done]") }
        try await terminal.send("echo EXIT=$?", "Enter")
        try await terminal.waitForScreen("the exit") { $0.contains("EXIT=0") }
    }

    /// Regression (item 5): `FileHandle.write` trapped on EPIPE, which a closed pipe gives
    /// when SIGPIPE is ignored from exec (`share activities | head -1` under systemd).
    @Test func aClosedPipeWithSIGPIPEIgnoredEndsShareQuietly() async throws {
        let share = try BuiltProducts.executable("share")
        // python3 ignores SIGPIPE itself; an ignored signal stays ignored across exec.
        let script = """
            import os, signal, sys
            signal.signal(signal.SIGPIPE, signal.SIG_IGN)
            r, w = os.pipe()
            os.close(r)
            os.dup2(w, 1)
            os.execv(sys.argv[1], [sys.argv[1], "--completions", "bash"])
            """
        let run = try await ChildProcess.run("/usr/bin/python3", ["-c", script, share])
        #expect(run.termination == .exited(141), "\(run.standardError)")
        #expect(run.standardError.isEmpty, "\(run.standardError)")
    }

    /// Regression (item 6): Ctrl-C on the browser window exited 0; a user cancel is 130.
    @Test func ctrlCOnTheBrowserWindowExits130() async throws {
        let broker = try await BrokerHarness(
            bus: TestBus.start(), manifests: shareTestManifests, start: false)
        defer { broker.stopInBackground() }
        broker.extraEnvironment.withLock { $0["DISPLAY"] = ":77" }
        try await broker.start()
        let browser = try await RecordingBrowser(bus: broker.bus)
        let share = try ChildProcess(
            executable: try BuiltProducts.executable("share"),
            arguments: ["--bus", broker.bus.address, "open", "https://example.org/window"],
            environment: broker.shareEnvironment)
        _ = try await browser.opens.next("Open")
        share.send(SIGINT)
        _ = try await browser.closes.next("Close")
        #expect(try await share.exit() == .exited(130), "\(share.standardError)")
    }

    /// Regression (item 8): ids went to bash's `compgen -W` as the broker sent them, and it
    /// expands `$(…)` and backticks: a fake broker got code run on Tab.
    @Test func completionPrintsOnlyValidActivityIDs() async throws {
        let bus = try await TestBus.start()
        defer { bus.stopInBackground() }
        let connection = try bus.connect()
        defer { connection.close() }
        let ids = ["test.good", "$(touch /tmp/pwned)", "`id`", "a b", "test.also-good_1"]
        try connection.export(
            Broker1.objectPath,
            interfaces: [
                Interface(
                    Broker1.interface,
                    methods: [
                        Broker1.listRegistered.method(
                            .immediate { _ in
                                [
                                    .vardictArray(
                                        ids.map { [RecordKey.id: .string($0), RecordKey.name: .string($0)] })
                                ]
                            })
                    ])
            ])
        #expect(try await connection.requestName(Broker1.busName) == .primaryOwner)
        let run = try await runShare(
            ["--bus", bus.address, "__complete-ids"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.lines == ["test.good", "test.also-good_1"])
    }
}
