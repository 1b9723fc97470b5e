// Issue 16's Action button end to end: the browser window's Share opens the real sheet for the app, and Copy Link copies the page's URL.
import ActivityBrokerClient
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

/// Records what the app's delegate hears, in order.
private final class SessionEvents: BrowsingSessionDelegate {
    let heard = Inbox<String>()

    func browsingSession(_ session: BrowsingSession, didCompleteInitialLoad success: Bool) {
        heard.put("completed \(success)")
    }
    func browsingSession(_ session: BrowsingSession, initialLoadDidRedirectTo url: URL) {
        heard.put("redirected \(url.absoluteString)")
    }
    func browsingSessionWillOpenInBrowser(_ session: BrowsingSession) { heard.put("will open in browser") }
    func browsingSessionDidFinish(_ session: BrowsingSession) { heard.put("finished") }
}

/// Everything real: Xvfb, a private bus activating the built `activity-browser` and
/// `activity-sheet`, the built broker with the repository's built-in manifests and a recording
/// `xclip` first on its PATH, a loopback site. The test is the app (an `owner` activity and
/// `BrokerProxy.browse` excluding Email Link), the user (AT-SPI and xdotool keys) and a screen
/// reader (the sheet's AT-SPI tree). The halves are covered elsewhere: the window tests play
/// the broker, the broker tests use a recording sheet.
@Suite(.serialized, .timeLimit(.minutes(3))) struct ActionButtonEndToEndTests {
    /// The repository's `extensions/`: the broker's real built-in manifests.
    static let builtins = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("extensions").path
    /// The AT-SPI reader the sheet tests use.
    static let sheetTreeScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("ActivitySheetUITests/Resources/sheet-tree.py").path

    @Test func theActionSheetOffersTheAppsOwnActivityAndCopyLinkCopiesThePagesURL() async throws {
        let fixture = try await BrowserFixture(ownsBrokerName: false, activatesSheet: true)
        let harness = try await BrokerHarness(
            bus: fixture.bus, extensionDirectories: [Self.builtins], start: false)
        defer { harness.stopInBackground() }
        let display = fixture.xvfb.display
        harness.extraEnvironment.withLock { $0["DISPLAY"] = display }
        // The recording clipboard tool: writes its stdin to a file, complete or not at all.
        // Installed by a child process, so that no descriptor of ours can leave it "busy".
        let clipboard = harness.layout.out + "/clipboard"
        let script = harness.root + "/xclip.sh"
        try "#!/bin/sh\ncat > '\(clipboard).part' && mv '\(clipboard).part' '\(clipboard)'\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        try await fixture.tool("/usr/bin/install", ["-m", "755", script, harness.layout.bin + "/xclip"])
        try await harness.start()

        // The app: an `owner` activity of its own, then the window on a loopback page.
        let appConnection = try fixture.bus.connect()
        let app = BrokerProxy(connection: appConnection, address: fixture.bus.address)
        let provider = ActivityProvider(connection: appConnection)
        try await provider.start([
            ProvidedActivity(
                id: "org.example.Reader.save", name: "Save to Reader", category: "share", visibility: .owner
            ) { _ in .completed }
        ])
        let page = fixture.url("/page/b")
        let events = SessionEvents()
        _ = try await app.browse(
            url: URL(string: page)!,
            configuration: BrowseConfiguration(excludedActivities: ["org.activitybroker.email-link"]),
            delegate: events)
        #expect(try await events.heard.next("the first load", deadline: .seconds(60)) == "completed true")
        let browserPID = try await fixture.browserPID()
        let browserWindow = try await fixture.window(pid: browserPID)
        try await fixture.waitForTitle("Page B", window: browserWindow)

        // The Action button: the broker activates the sheet on the app's behalf.
        try await fixture.pressButton("Share", pid: browserPID)
        let sheetPID = try await sheetPID(fixture)
        let sheetWindow = try await fixture.window(pid: sheetPID)
        let tree = try await waitForSheetTree(fixture, pid: sheetPID, "the offered activities") {
            Self.buttons($0).contains("Cancel")
        }
        let buttons = Self.buttons(tree)
        #expect(buttons.contains("Save to Reader"), "the app's owner activity is in its sheet: \(buttons)")
        #expect(!buttons.contains("Email Link"), "the excluded built-in is not: \(buttons)")
        #expect(buttons.contains("Copy Link"), "the clipboard tool makes Copy Link available: \(buttons)")

        // Type to filter, Enter performs the one left.
        try await fixture.tool("xdotool", ["windowfocus", "--sync", sheetWindow, "type", "--delay", "20", "Copy"])
        _ = try await waitForSheetTree(fixture, pid: sheetPID, "only Copy Link") {
            Self.buttons($0) == ["Copy Link", "Cancel"]
        }
        try await fixture.tool("xdotool", ["windowfocus", "--sync", sheetWindow, "key", "Return"])
        var copied = ""
        do {
            try await waitUntil("the recording xclip", interval: .milliseconds(50)) {
                copied = (try? String(contentsOfFile: clipboard, encoding: .utf8)) ?? ""
                return !copied.isEmpty
            }
        } catch {
            Issue.record("broker log: \(harness.log)")
            throw error
        }
        #expect(copied == page, "the page's URL, never the app's")
        try await waitUntil("the sheet to close", interval: .milliseconds(50)) {
            !(try await fixture.hasVisibleWindow(pid: sheetPID))
        }

        // Done: the app's session ends.
        try await fixture.press("ctrl+w", window: browserWindow)
        #expect(try await events.heard.next("the end", deadline: .seconds(30)) == "finished")
        await provider.close()
    }

    /// The pid of the activated sheet service, once it owns its name.
    private func sheetPID(_ fixture: BrowserFixture) async throws -> UInt32 {
        var pid: UInt32 = 0
        try await waitUntil("activity-sheet to own its name", deadline: .seconds(30), interval: .milliseconds(20)) {
            pid = (try? await fixture.broker.unixProcessID(of: Sheet1.busName.rawValue)) ?? 0
            return pid != 0
        }
        return pid
    }

    /// Waits until the sheet's accessibility tree (`sheet-tree.py`) satisfies `condition`.
    private func waitForSheetTree(
        _ fixture: BrowserFixture, pid: UInt32, _ what: String, _ condition: ([String]) -> Bool
    ) async throws -> [String] {
        var tree: [String] = []
        do {
            try await waitUntil(what, deadline: .seconds(30), interval: .milliseconds(100)) {
                let run = try await ChildProcess.run(
                    "/usr/bin/python3", [Self.sheetTreeScript, "\(pid)"], environment: fixture.toolEnvironment,
                    deadline: .seconds(30))
                tree = run.termination == .exited(0) ? run.standardOutput.split(separator: "\n").map(String.init) : []
                return condition(tree)
            }
        } catch {
            Issue.record("last tree read: \(tree)")
            throw error
        }
        return tree
    }

    /// The names of the visible push buttons, in tree order.
    static func buttons(_ tree: [String]) -> [String] {
        tree.compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return fields.count >= 2 && fields[0] == "push button" ? String(fields[1]) : nil
        }
    }
}
