// activity-browser against pages that try to launch apps, save files, spoof the address, take the screen or flood the title.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct HostilePageUITests {
    /// The page's hidden frame (`steam:`), its frame redirected to `framejump:` and its timer
    /// setting `location` to `timerapp:` launch nothing; a click on a link that the server
    /// redirects to `clickjump:` launches nothing; a click on its `mailto:` link still does.
    @Test func aPageLaunchesNoAppWithoutAClickAndAClickStillLaunches() async throws {
        let fixture = try await BrowserFixture()
        let (pid, window) = try await fixture.openWindow("/launch", title: "Launcher")
        for scheme in ["steam", "framejump", "timerapp"] {
            try await waitUntil(
                "the dropped \(scheme): launch", deadline: .seconds(30), interval: .milliseconds(50)
            ) {
                fixture.browserLog.contains("dropped a launch of '\(scheme):'")
            }
        }
        #expect(fixture.openedURLs.isEmpty, "\(fixture.openedURLs)")

        try await fixture.click(window: window, x: 400, y: 550)  // the redirected link
        try await waitUntil(
            "the dropped clickjump: launch", deadline: .seconds(30), interval: .milliseconds(50)
        ) {
            fixture.browserLog.contains("dropped a launch of 'clickjump:'")
        }
        #expect(fixture.openedURLs.isEmpty, "\(fixture.openedURLs)")

        try await fixture.click(window: window, x: 400, y: 150)  // mailto:
        try await waitUntil("the system opener", interval: .milliseconds(50)) {
            !fixture.openedURLs.isEmpty
        }
        // The timer goes on (2 s after the click); one more dropped tick shows it launched nothing.
        let ticks = fixture.browserLog.components(separatedBy: "'timerapp:'").count
        try await waitUntil("another timer tick", deadline: .seconds(30), interval: .milliseconds(50)) {
            fixture.browserLog.components(separatedBy: "'timerapp:'").count > ticks
        }
        #expect(fixture.openedURLs == ["mailto:someone@example.org"])
        #expect(!fixture.browserLog.contains("someone@example.org"), "the log names schemes, not URLs")
        #expect(try await fixture.title(window: window) == "Launcher")
    }

    /// While the system opener is still busy with a launch the page's click asked for, another
    /// click launches nothing; once it is done, a click launches again.
    @Test func aWindowRunsOneLaunchAtATime() async throws {
        let fixture = try await BrowserFixture()
        // An opener that records its URL, then holds on until the test lets it go (bounded).
        let release = fixture.directory + "/release-opener"
        try """
        #!/bin/sh
        echo "$1" >> '\(fixture.opened)'
        i=0
        while [ ! -e '\(release)' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
        rm -f '\(release)'

        """.write(toFile: fixture.directory + "/opener", atomically: true, encoding: .utf8)
        chmod(fixture.directory + "/opener", 0o755)
        let (pid, window) = try await fixture.openWindow("/mail", title: "Mail Link")
        try await fixture.click(window: window, x: 400, y: 300)
        try await waitUntil("the first launch", interval: .milliseconds(50)) { fixture.openedURLs.count == 1 }
        try await fixture.click(window: window, x: 400, y: 300)
        try await waitUntil("the second click's drop", deadline: .seconds(30), interval: .milliseconds(50)) {
            fixture.browserLog.contains("dropped a launch of 'mailto:' while another runs")
        }
        #expect(fixture.openedURLs.count == 1)
        FileManager.default.createFile(atPath: release, contents: nil)
        try await waitUntil("the opener to end", deadline: .seconds(30), interval: .milliseconds(50)) {
            !FileManager.default.fileExists(atPath: release)
        }
        try await waitUntil(
            "a launch after the opener ended", deadline: .seconds(30), interval: .milliseconds(100)
        ) {
            if fixture.openedURLs.count < 2 { try await fixture.click(window: window, x: 400, y: 300) }
            return fixture.openedURLs.count == 2
        }
        FileManager.default.createFile(atPath: release, contents: nil)
    }

    /// An attachment opened as the first load, a type no page shows, and a `<a download>` the
    /// page clicks by script: nothing is written to the download directory or anywhere else.
    @Test func downloadsAreRefusedAndNothingIsSaved() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(fixture.url("/attachment"))
        let first = try await fixture.nextEvent()
        #expect(first.name == Browser1.EventName.initialLoadCompleted)
        try await waitUntil("the refused attachment", deadline: .seconds(30), interval: .milliseconds(50)) {
            fixture.browserLog.contains("refused a download from http://127.0.0.1:\(fixture.port)")
        }

        // A second session, on the page that clicks its own download link.
        let refusals = { fixture.browserLog.components(separatedBy: "refused a download").count }
        let before = refusals()
        try await fixture.close()
        _ = try await fixture.nextEvent()
        try await fixture.open(fixture.url("/download-link"))
        _ = try await fixture.nextEvent()
        try await waitUntil("the refused download link", deadline: .seconds(30), interval: .milliseconds(50))
        {
            refusals() > before
        }
        #expect(Self.files(below: fixture.home).isEmpty, "\(Self.files(below: fixture.home))")
        let saved = Self.files(below: fixture.directory).filter { $0.contains("report") }
        #expect(saved.isEmpty, "\(saved)")
    }

    @Test func aTypeNoPageShowsIsRefused() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(fixture.url("/binary"))
        _ = try await fixture.nextEvent()
        try await waitUntil("the refused type", deadline: .seconds(30), interval: .milliseconds(50)) {
            fixture.browserLog.contains("a type the browser cannot show")
        }
        #expect(Self.files(below: fixture.home).isEmpty, "\(Self.files(below: fixture.home))")
    }

    /// While a navigation to another site is pending (its server has not answered), the address
    /// still names the site shown; it changes once the new page commits. The link opens a new
    /// window, which the window loads itself (`webkit_web_view_load_uri`): WebKit's URI is the
    /// requested one from then on, while the page shown is still the old one.
    @Test func theAddressKeepsTheShownSiteUntilTheNextPageCommits() async throws {
        let fixture = try await BrowserFixture()
        let (other, otherPort) = try await BrowserFixture.startSite(arguments: [])
        defer { other.closeStandardInput() }
        let slow = "http://127.0.0.1:\(otherPort)/slow"
        try await fixture.open(fixture.url("/blank-to?" + slow))
        _ = try await fixture.nextEvent()
        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        try await fixture.waitForTitle("Link", window: window)
        _ = try await fixture.waitForTree(pid: pid, "the first site") {
            $0.contains { $0.hasPrefix("label\t127.0.0.1:\(fixture.port)") }
        }
        try await fixture.click(window: window, x: 400, y: 300)
        _ = try await other.nextLine(deadline: .seconds(30)) { $0 == "slow requested" }
        let pending = try await fixture.accessibleTree(pid: pid)
        #expect(pending.contains { $0.hasPrefix("label\t127.0.0.1:\(fixture.port)") }, "\(pending)")
        #expect(!pending.contains { $0.contains("127.0.0.1:\(otherPort)") }, "\(pending)")

        _ = try await ChildProcess.run(
            "/usr/bin/curl", ["-s", "http://127.0.0.1:\(otherPort)/release"], deadline: .seconds(30))
        try await fixture.waitForTitle("Slow Page", window: window)
        _ = try await fixture.waitForTree(pid: pid, "the second site") {
            $0.contains { $0.hasPrefix("label\t127.0.0.1:\(otherPort)") }
        }
    }

    /// A page's title of 1000 characters: the window title is cut to 256, ending in an ellipsis.
    @Test func aLongTitleIsCutInTheWindowTitle() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(fixture.url("/long-title"))
        _ = try await fixture.nextEvent()
        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        let expected = "Long " + String(repeating: "x", count: 250) + "…"
        try await fixture.waitForTitle(expected, window: window)
        _ = try await fixture.screenshot(window: window, name: "browser-long-title")
    }

    /// Under a window manager (which would honour it), a page's fullscreen request leaves the
    /// window as it was: the address, the lock and Done stay on screen.
    @Test func fullscreenIsRefused() async throws {
        let fixture = try await BrowserFixture()
        let windowManager = try await fixture.startWindowManager(supporting: "_NET_WM_STATE_FULLSCREEN")
        defer { fixture.stopWindowManager(windowManager) }
        let (pid, window) = try await fixture.openWindow("/fullscreen", title: "Fullscreen")
        try await fixture.click(window: window, x: 400, y: 300)
        // The page's promise settles either way; then the window manager has had its say.
        do {
            try await waitUntil("the request to settle", deadline: .seconds(30), interval: .milliseconds(50))
            {
                try await fixture.title(window: window) != "Fullscreen"
            }
        } catch {
            let now = try? await fixture.tool("xdotool", ["search", "--pid", "\(pid)"])
            Issue.record("windows then \(window), now \(now ?? "?"); log: \(fixture.browserLog)")
            throw error
        }
        let state = try await fixture.tool("xprop", ["-id", window, "_NET_WM_STATE"])
        #expect(!state.contains("_NET_WM_STATE_FULLSCREEN"), "\(state)")
        let tree = try await fixture.accessibleTree(pid: pid)
        #expect(tree.contains { $0.hasPrefix("push button\tDone") }, "\(tree)")
        _ = try await fixture.screenshot(window: window, name: "browser-fullscreen-refused")
    }

    /// Pointer lock, which WebKit grants unless told otherwise, is denied like every permission.
    @Test func pointerLockIsDenied() async throws {
        let fixture = try await BrowserFixture()
        let (pid, window) = try await fixture.openWindow("/pointer-lock", title: "Pointer Lock")
        try await fixture.click(window: window, x: 400, y: 300)
        try await fixture.waitForTitle("no lock", window: window)
    }

    /// The Action button shares the page's title within the broker's 4 KiB and the window title
    /// is cut to 256 characters. (WebKit itself keeps 1000 UTF-16 units of a title, at most 3000
    /// bytes, so the 4 KiB cut is `TitleTextTests`' to show.)
    @Test func aHugeTitleIsCutInTheWindowAndSharedWithinTheLimit() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(fixture.url("/huge-title"))
        _ = try await fixture.nextEvent()
        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        try await fixture.waitForTitle("Huge " + String(repeating: "é", count: 250) + "…", window: window)
        try await fixture.pressButton("Share", pid: pid)
        let body = try await fixture.shares.next("a Share call", deadline: .seconds(30))
        let title = try #require(body[1].vardict?[ItemKey.title]?.string)
        #expect(title.utf8.count <= 4 * 1024)
        #expect(title.hasPrefix("Huge éé") && title.dropFirst(5).allSatisfy { $0 == "é" }, "\(title.count)")
    }

    /// The web process dies while the first load waits for its server: the window shows that the
    /// page stopped, and the app hears the first load failed.
    @Test func aDeadWebProcessFailsThePendingFirstLoad() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(fixture.url("/slow"))
        _ = try await fixture.site.nextLine(deadline: .seconds(30)) { $0 == "slow requested" }
        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        let webProcesses = try await Self.descendants(of: Int32(pid), named: "WebKitWebProces")
        try #require(!webProcesses.isEmpty, "no web process under \(pid)")
        for process in webProcesses { kill(process, SIGKILL) }
        let event = try await fixture.nextEvent()
        #expect(event.name == Browser1.EventName.initialLoadCompleted)
        #expect(event.details[Browser1.DetailKey.success] == .boolean(false))
        try await fixture.waitForTitle("Page Stopped", window: window)
        _ = try await ChildProcess.run(
            "/usr/bin/curl", ["-s", fixture.url("/release")], deadline: .seconds(30))
        _ = try await fixture.screenshot(window: window, name: "browser-page-stopped")
    }

    /// The processes below `root` whose command name (15 bytes at most) is `name`.
    static func descendants(of root: Int32, named name: String) async throws -> [Int32] {
        let run = try await ChildProcess.run("/bin/ps", ["-e", "-o", "pid=,ppid=,comm="])
        var parent: [Int32: Int32] = [:]
        var names: [Int32: String] = [:]
        for line in run.standardOutput.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard fields.count == 3, let pid = Int32(fields[0]), let ppid = Int32(fields[1]) else { continue }
            parent[pid] = ppid
            names[pid] = String(fields[2])
        }
        func below(_ pid: Int32) -> Bool {
            var current = pid
            while let up = parent[current], up > 1 {
                if up == root { return true }
                current = up
            }
            return false
        }
        return names.filter { $0.value == name && below($0.key) }.map(\.key)
    }

    static func files(below root: String) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: root) else { return [] }
        return walk.compactMap { $0 as? String }.filter {
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + $0, isDirectory: &directory)
                && !directory.boolValue
        }
    }
}
