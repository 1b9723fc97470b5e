// bar_collapsing_enabled under Xvfb: scrolling a long page down collapses the header bar, back to the top restores it.
import ActivityBrokerInterface
import Foundation
import TestSupport
import Testing

/// Reads the header bar through AT-SPI while keys scroll a loopback page.
@Suite(.serialized) struct BarCollapsingUITests {
    @Test func scrollingDownCollapsesTheBarAndTheTopRestoresIt() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(fixture.url("/long"))
        #expect(try await fixture.nextEvent().name == Browser1.EventName.initialLoadCompleted)
        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        try await fixture.waitForTitle("Long Page", window: window)
        _ = try await fixture.waitForTree(pid: pid, "the full bar") { $0.contains("push button\tShare") }

        try await fixture.press("End", window: window)
        try await fixture.waitForTitle("Bottom", window: window)
        let collapsed = try await fixture.waitForTree(pid: pid, "the bar collapsed") {
            !$0.contains { $0.hasPrefix("push button\tShare") }
        }
        #expect(!collapsed.contains { $0.hasPrefix("push button\tBack") })
        #expect(!collapsed.contains { $0.hasPrefix("push button\tDone") })
        #expect(
            collapsed.contains { $0.hasPrefix("label\t127.0.0.1:\(fixture.port)") },
            "the address stays readable: \(collapsed)")
        // The page fills the room the bar gave up: its white reaches the window's bottom edge.
        let path = try await fixture.screenshot(window: window, name: "browser-bar-collapsed") {
            try await fixture.meanColor($0, region: "400x40+550+640") == "#ffffff"
        }
        #expect(try await fixture.meanBrightness(path) > 0.5)

        try await fixture.press("Home", window: window)
        try await fixture.waitForTitle("Top", window: window)
        _ = try await fixture.waitForTree(pid: pid, "the bar back") {
            $0.contains("push button\tShare") && $0.contains { $0.hasPrefix("push button\tDone") }
        }
        // Collapsed or not, Esc dismisses.
        try await fixture.press("End", window: window)
        _ = try await fixture.waitForTree(pid: pid, "collapsed again") {
            !$0.contains { $0.hasPrefix("push button\tShare") }
        }
        try await fixture.press("Escape", window: window)
        #expect(try await fixture.nextEvent().name == Browser1.EventName.finished)
    }

    @Test func withTheOptionFalseTheBarNeverCollapses() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(fixture.url("/long"), options: ["bar_collapsing_enabled": .boolean(false)])
        #expect(try await fixture.nextEvent().name == Browser1.EventName.initialLoadCompleted)
        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        try await fixture.waitForTitle("Long Page", window: window)
        try await fixture.press("End", window: window)
        try await fixture.waitForTitle("Bottom", window: window)
        // A scroll report follows the scroll by the page script's 200 ms throttle; another
        // round trip to the top and back gives it time to arrive (a window with the option
        // false does not listen at all, so it is ignored).
        try await fixture.press("Home", window: window)
        try await fixture.waitForTitle("Top", window: window)
        try await fixture.press("End", window: window)
        try await fixture.waitForTitle("Bottom", window: window)
        let tree = try await fixture.waitForTree(pid: pid, "the bar") { $0.contains { $0.hasPrefix("label\t127") } }
        #expect(tree.contains("push button\tShare"), "the bar stays: \(tree)")
        #expect(tree.contains { $0.hasPrefix("push button\tDone") })
    }
}
