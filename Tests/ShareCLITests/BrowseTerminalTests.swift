// `share browse` and `share open` end to end: a loopback web server, the real broker, tmux as the terminal.
import DBus
import Foundation
import TestSupport
import Testing

/// A terminal to drive a program in: a tmux server of its own, read with capture-pane.
final class TmuxTerminal: @unchecked Sendable {
    let socket = "share-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    private let environment: [String: String]

    init(command: String, environment: [String: String], columns: Int = 100, rows: Int = 30) async throws {
        self.environment = environment
        try await tmux(["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", command])
    }

    deinit {
        // Waiting for tmux blocks: on a thread of its own, not the pool thread that releases
        // the terminal (`BackgroundCleanup`).
        let (socket, environment) = (socket, environment)
        BackgroundCleanup.run {
            _ = try? ChildProcess(
                executable: "tmux", arguments: ["-L", socket, "kill-server"], environment: environment
            )
            .waitForExit(deadline: .seconds(5))
        }
    }

    @discardableResult
    func tmux(_ arguments: [String]) async throws -> String {
        let run = try await ChildProcess.run("tmux", ["-L", socket] + arguments, environment: environment)
        return run.standardOutput
    }

    func send(_ keys: String...) async throws { try await tmux(["send-keys"] + keys) }

    var screen: String { get async throws { try await tmux(["capture-pane", "-p"]) } }

    /// Waits until the screen satisfies `condition`; the error shows the last screen.
    @discardableResult
    func waitForScreen(
        _ what: String, deadline: Deadline = .standard, _ condition: @escaping (String) -> Bool
    )
        async throws -> String
    {
        var last = ""
        do {
            try await waitUntil(what, deadline: deadline) {
                last = (try? await self.screen) ?? ""
                return condition(last)
            }
        } catch {
            throw TimeoutError("\(what); the screen was:\n\(last)")
        }
        return last
    }
}

/// A static site on 127.0.0.1 served by python3's http.server on a port the kernel picks.
final class LoopbackSite: @unchecked Sendable {
    let directory: String
    let server: ChildProcess
    let port: Int

    init(pages: [String: String]) async throws {
        directory = try TemporaryDirectory(prefix: "site").path
        for (name, html) in pages {
            try html.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
        server = try ChildProcess(
            executable: "/usr/bin/python3",
            arguments: ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1"],
            workingDirectory: directory)
        let line = try await server.nextLine { $0.contains("port") }
        port = Int(line.split(separator: " ").first { Int($0) != nil } ?? "") ?? 0
    }

    deinit {
        server.kill()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }
}

@Suite(.serialized) struct BrowseTerminalTests {
    static let pages = [
        "index.html": """
        <html><head><title>Loopback Home</title></head><body>
        <p>The home page.</p><a href="/first.html">First page</a> <a href="/second.html">Second page</a>
        </body></html>
        """,
        "first.html":
            "<html><head><title>First Page</title></head><body><a href=\"/\">Home</a></body></html>",
        "second.html":
            "<html><head><title>Second Page</title></head><body><a href=\"/\">Home</a></body></html>",
    ]

    /// A broker (with the shipped Telegram and Open in Browser manifests) whose opener records
    /// its argument, and an environment whose PATH has an `xdg-open` that records too.
    struct World {
        let broker: BrokerHarness
        let environment: [String: String]
        var root: String { broker.root }
        var xdgOpenRecord: String { root + "/xdg-open.args" }
    }

    static func world(extraManifests: [String: String] = [:]) async throws -> World {
        var manifests: [String: String] = extraManifests
        for name in ["telegram.json", "open-in-browser.json"] {
            manifests[name] = try String(
                contentsOfFile: repositoryRoot + "/extensions/" + name, encoding: .utf8)
        }
        let broker = try await BrokerHarness(bus: TestBus.start(), manifests: manifests)
        try FileManager.default.createDirectory(
            atPath: broker.root + "/bin", withIntermediateDirectories: true)
        let xdgOpen = broker.root + "/bin/xdg-open"
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '\(broker.root)/xdg-open.args'\n".write(
            toFile: xdgOpen, atomically: true, encoding: .utf8)
        chmod(xdgOpen, 0o755)
        var environment = broker.environment
        environment["PATH"] = broker.root + "/bin:/usr/bin:/bin"
        environment["TERM"] = "xterm-256color"
        return World(broker: broker, environment: environment)
    }

    @Test func browseFollowsGoesBackAndForwardAndSharesThroughTheActionSheet() async throws {
        let world = try await Self.world()
        let site = try await LoopbackSite(pages: Self.pages)
        let share = try BuiltProducts.executable("share")
        let terminal = try await TmuxTerminal(
            command: "stty -a > \(world.root)/stty.before; \(share) browse \(site.url("")); code=$?;"
                + " stty -a > \(world.root)/stty.after; echo EXIT=$code > \(world.root)/exit.tmp;"
                + " mv \(world.root)/exit.tmp \(world.root)/exit; sleep 60",
            environment: world.environment)

        let home = try await terminal.waitForScreen("the home page") {
            $0.contains("Loopback Home") && $0.contains("2. Second page")
        }
        #expect(home.contains("Not Secure"))
        #expect(home.contains("1. First page"))
        #expect(home.contains("[Done]"))

        try await terminal.send("2", "Enter")
        try await terminal.waitForScreen("the second page") { $0.contains("Second Page") }
        try await terminal.send("b")
        try await terminal.waitForScreen("back home") { $0.contains("Loopback Home") }
        try await terminal.send("f")
        try await terminal.waitForScreen("forward to the second page") { $0.contains("Second Page") }
        try await terminal.send("b")
        try await terminal.waitForScreen("back home again") { $0.contains("Loopback Home") }

        try await terminal.send("a")
        try await terminal.waitForScreen("the Action sheet") {
            $0.contains("Open in Browser") && $0.contains("Telegram")
        }
        try await terminal.send("End", "Enter")  // the last entry: Open in Browser (actions come last)
        try await terminal.waitForScreen("the outcome") { $0.contains("Done: Open in Browser") }
        #expect(world.broker.opened == [site.url("")])

        try await terminal.send("q")
        try await waitUntil("share to exit") { FileManager.default.fileExists(atPath: world.root + "/exit") }
        #expect(try String(contentsOfFile: world.root + "/exit", encoding: .utf8) == "EXIT=0\n")
        #expect(
            try String(contentsOfFile: world.root + "/stty.before", encoding: .utf8)
                == String(contentsOfFile: world.root + "/stty.after", encoding: .utf8))
        #expect(!world.broker.log.contains(site.url("")))
    }

    @Test func browseWithoutATerminalPrintsThePageOnce() async throws {
        let world = try await Self.world()
        let site = try await LoopbackSite(pages: Self.pages)
        let run = try await ChildProcess.run(
            try BuiltProducts.executable("share"), ["browse", site.url("")], environment: world.environment)
        #expect(run.termination == .exited(0))
        #expect(run.standardOutput.contains("Not Secure 127.0.0.1"))
        #expect(run.standardOutput.contains("1. First page — \(site.url("first.html"))"))
    }

    @Test func openHandsMailtoToTheSystemOpener() async throws {
        let world = try await Self.world()
        let run = try await ChildProcess.run(
            try BuiltProducts.executable("share"), ["open", "mailto:a@example.org", "--json"],
            environment: world.environment)
        #expect(run.termination == .exited(0))
        let report =
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: String]
        #expect(report?["outcome"] == "systemAction")
        #expect(try String(contentsOfFile: world.xdgOpenRecord, encoding: .utf8) == "mailto:a@example.org\n")
    }

    @Test func openDiscardsJavascriptWithTheReason() async throws {
        let world = try await Self.world()
        let run = try await ChildProcess.run(
            try BuiltProducts.executable("share"), ["open", "javascript:alert(1)"],
            environment: world.environment)
        #expect(run.termination == .exited(2))
        #expect(run.standardError.contains("javascript"))
        #expect(!FileManager.default.fileExists(atPath: world.xdgOpenRecord))
    }

    @Test func openStartsABrowsingSessionForWebPages() async throws {
        let world = try await Self.world()
        let site = try await LoopbackSite(pages: Self.pages)
        let share = try BuiltProducts.executable("share")
        let terminal = try await TmuxTerminal(
            command: "\(share) open \(site.url("first.html")); echo EXIT=$?; sleep 60",
            environment: world.environment)
        try await terminal.waitForScreen("the session") { $0.contains("First Page") && $0.contains("[Done]") }
        try await terminal.send("q")
        try await terminal.waitForScreen("the exit") { $0.contains("EXIT=0") }
    }
}
