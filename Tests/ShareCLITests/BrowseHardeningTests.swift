// `share browse` against hostile and awkward pages: sanitized output, confirmed schemes, keys during loads, scrolling.
import Foundation
import Glibc
import TestSupport
import Testing

/// A TCP port on 127.0.0.1 that accepts connections (the kernel completes them) but never
/// answers: a page that loads forever.
final class SilentPort: @unchecked Sendable {
    let socket: Int32
    let port: Int

    init() throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else {
            close(fd)
            throw MissingFileError(what: "a listening socket")
        }
        socket = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socket) }
}

@Suite(.serialized, .timeLimit(.minutes(2))) struct BrowseHardeningTests {
    /// Escape sequences a page must not get to the terminal: a window title (OSC 0), the
    /// clipboard (OSC 52), a screen clear (CSI 2J), the same in 8-bit C1 form, and a
    /// right-to-left override that makes a URL read backwards.
    static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}]52;c;ZXZpbA==\u{07}\u{1B}[2J\u{9B}31m\u{202E}"

    static let pages = [
        "index.html": """
        <html><head><title>Hostile \(hostile)Title</title></head><body>
        <a href="/a.html">Link \(hostile)text</a>
        <a href="ssh://evil.example/x">Remote shell</a>
        <a href="smb://files.example/share">Files</a>
        </body></html>
        """,
        "a.html": "<title>Page A</title>",
        "long.html": "<title>Long</title>"
            + (1...60).map { "<a href=\"/a.html?\($0)\">Entry \($0)</a>" }.joined(separator: "\n"),
    ]

    static func assertClean(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for scalar: Unicode.Scalar in ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}"] {
            #expect(
                !text.unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16)) printed raw",
                sourceLocation: sourceLocation)
        }
    }

    /// Regression (issue 11, item 12): without a terminal the title and links were printed raw.
    @Test(arguments: ["dumb", "xterm-256color"])
    func withoutATerminalThePageIsPrintedSanitized(term: String) async throws {
        let world = try await BrowseTerminalTests.world()
        let site = try await LoopbackSite(pages: Self.pages)
        var environment = world.environment
        environment["TERM"] = term
        let run = try await ChildProcess.run(
            try BuiltProducts.executable("share"), ["browse", site.url("")], environment: environment)
        #expect(run.termination == .exited(0), "\(run.standardError)")
        #expect(run.standardOutput.contains("Hostile"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("Title"))
        #expect(run.standardOutput.contains("Not Secure 127.0.0.1:\(site.port)"))
        Self.assertClean(run.standardOutput)
        Self.assertClean(run.standardError)
    }

    /// Regression (issue 13): `HTTP://` failed while `share open --json` said `handled`;
    /// `file:` URLs were browsed.
    @Test func schemesAreCaseInsensitiveAndOnlyWebPagesAreBrowsed() async throws {
        let world = try await BrowseTerminalTests.world()
        let site = try await LoopbackSite(pages: Self.pages)
        let share = try BuiltProducts.executable("share")
        let upper = "HTTP://127.0.0.1:\(site.port)/a.html"
        let browse = try await ChildProcess.run(share, ["browse", upper], environment: world.environment)
        #expect(browse.termination == .exited(0), "\(browse.standardError)")
        #expect(browse.standardOutput.contains("Page A"))
        let open = try await ChildProcess.run(
            share, ["open", upper, "--json"], environment: world.environment)
        let report =
            try JSONSerialization.jsonObject(with: Data(open.standardOutput.utf8)) as? [String: String]
        #expect(report?["outcome"] == "handled")

        let file = try await ChildProcess.run(
            share, ["browse", "file:///etc/passwd"], environment: world.environment)
        #expect(file.termination == .exited(2))
        #expect(!file.standardOutput.contains("root:"))
        let openFile = try await ChildProcess.run(
            share, ["open", "file:///etc/passwd", "--json"], environment: world.environment)
        let fileReport =
            try JSONSerialization.jsonObject(with: Data(openFile.standardOutput.utf8)) as? [String: String]
        #expect(fileReport?["outcome"] == "discarded")
    }

    /// Starts `share browse URL` in tmux; the command writes its exit status to `exit`.
    static func browse(_ url: String, world: BrowseTerminalTests.World, bus: String? = nil) async throws
        -> TmuxTerminal
    {
        let share = try BuiltProducts.executable("share")
        let busArgument = bus.map { " --bus '\($0)'" } ?? ""
        return try await TmuxTerminal(
            command: "\(share)\(busArgument) browse '\(url)'; echo EXIT=$? > \(world.root)/exit.tmp;"
                + " mv \(world.root)/exit.tmp \(world.root)/exit; sleep 60",
            environment: world.environment)
    }

    static func exitStatus(_ world: BrowseTerminalTests.World) async throws -> String {
        try await waitUntil("share to exit") { FileManager.default.fileExists(atPath: world.root + "/exit") }
        return try String(contentsOfFile: world.root + "/exit", encoding: .utf8)
    }

    /// Regression (issue 13): `1` then `4` followed link 14 without Enter, and one digit
    /// followed link 1 at once when there were fewer than ten. A digit now only types.
    @Test func linksAreFollowedOnlyWithEnter() async throws {
        let world = try await BrowseTerminalTests.world()
        let site = try await LoopbackSite(pages: Self.pages)
        let terminal = try await Self.browse(site.url(""), world: world)
        try await terminal.waitForScreen("the page") { $0.contains("1. Link") && $0.contains("Enter follow") }
        try await terminal.send("1")
        try await terminal.waitForScreen("the typed number") { $0.contains("link 1_") }
        #expect(try await terminal.screen.contains("Hostile"), "still on the first page")
        try await terminal.send("Enter")
        try await terminal.waitForScreen("page A") { $0.contains("Page A") }
        try await terminal.send("q")
        #expect(try await Self.exitStatus(world) == "EXIT=0\n")
    }

    /// Regression (issue 11, item 15): `ssh:` and `smb:` links of a remote page went to the
    /// system opener on one key press.
    @Test func aNonWebLinkIsOpenedOnlyAfterConfirmation() async throws {
        let world = try await BrowseTerminalTests.world()
        let site = try await LoopbackSite(pages: Self.pages)
        let terminal = try await Self.browse(site.url(""), world: world)
        try await terminal.waitForScreen("the page") { $0.contains("2. Remote shell") }
        try await terminal.send("2", "Enter")
        try await terminal.waitForScreen("the question") {
            $0.contains("ssh://evil.example/x") && $0.contains("y opens")
        }
        try await terminal.send("n")
        try await terminal.waitForScreen("the refusal") { $0.contains("Not opened.") }
        #expect(!FileManager.default.fileExists(atPath: world.xdgOpenRecord), "the opener ran without a yes")

        try await terminal.send("3", "Enter")
        try await terminal.waitForScreen("the question") { $0.contains("smb://files.example/share") }
        try await terminal.send("y")
        try await terminal.waitForScreen("the hand-over") { $0.contains("Handed to the system opener") }
        #expect(
            try String(contentsOfFile: world.xdgOpenRecord, encoding: .utf8) == "smb://files.example/share\n")
        try await terminal.send("q")
        #expect(try await Self.exitStatus(world) == "EXIT=0\n")
    }

    /// Regression (issue 11, item 16): keys were not read during a load; q, Esc and Ctrl-C
    /// waited for the page (or its 20 s timeout).
    @Test func qStopsALoadAndCtrlCEndsTheSession() async throws {
        let world = try await BrowseTerminalTests.world()
        let silent = try SilentPort()
        let terminal = try await Self.browse("http://127.0.0.1:\(silent.port)/", world: world)
        try await terminal.waitForScreen("the load") { $0.contains("q or Esc stops") }
        try await terminal.send("q")
        try await terminal.waitForScreen("the load stopped") {
            $0.contains("Stopped loading.")
        }
        try await terminal.send("q")
        #expect(try await Self.exitStatus(world) == "EXIT=0\n")

        let other = try await BrowseTerminalTests.world()
        let second = try await Self.browse("http://127.0.0.1:\(silent.port)/", world: other)
        try await second.waitForScreen("the load") { $0.contains("q or Esc stops") }
        try await second.send("C-c")
        #expect(try await Self.exitStatus(other) == "EXIT=130\n")
    }

    /// Regression (issue 13): scrolling past the end kept counting, so keys back up did
    /// nothing until the overshoot was undone.
    @Test func scrollingStopsAtTheEnds() async throws {
        let world = try await BrowseTerminalTests.world()
        let site = try await LoopbackSite(pages: Self.pages)
        let terminal = try await Self.browse(site.url("long.html"), world: world)
        try await terminal.waitForScreen("the page") { $0.contains("1. Entry 1") }
        try await terminal.send("G")
        let bottom = try await terminal.waitForScreen("the bottom") { $0.contains("60. Entry 60") }
        try await terminal.tmux(["send-keys", "-N", "40", "j"])
        // A typed digit shows once the 40 keys before it are handled; Esc clears it again.
        try await terminal.send("1")
        try await terminal.waitForScreen("the keys handled") { $0.contains("link 1_") }
        try await terminal.send("Escape")
        try await terminal.waitForScreen("the bottom again") { $0 == bottom }
        try await terminal.send("k")
        try await terminal.waitForScreen("one line up") { $0 != bottom && $0.contains("Entry 59") }
        try await terminal.send("q")
        #expect(try await Self.exitStatus(world) == "EXIT=0\n")
    }

    /// Regression (issue 13): with no broker the Action sheet said "nothing to offer".
    @Test func theActionSheetSaysWhenTheBrokerIsNotReachable() async throws {
        let world = try await BrowseTerminalTests.world()
        let site = try await LoopbackSite(pages: Self.pages)
        let terminal = try await Self.browse(
            site.url("a.html"), world: world, bus: "unix:path=/nonexistent/bus")
        try await terminal.waitForScreen("the page") { $0.contains("Page A") }
        try await terminal.send("a")
        let screen = try await terminal.waitForScreen("the broker's absence") { $0.contains("not reachable") }
        #expect(!screen.contains("nothing to offer"))
        try await terminal.send("q")
        #expect(try await Self.exitStatus(world) == "EXIT=0\n")
    }
}
