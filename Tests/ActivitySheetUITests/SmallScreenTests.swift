// The sheet on a 640×480 screen, and a Share row of 20 activities reached from the keyboard: geometry read through AT-SPI.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

private func response(_ reply: [Value]) -> UInt32? { reply.first?.uint32 }

/// Geometry, not pixels: where GTK placed the window and its controls (each widget's bounds
/// in window coordinates, as GTK's AT-SPI Component reports them) against the X screen.
@Suite(.serialized) struct SmallScreenTests {
    @Test func onA640x480ScreenTheSheetFitsAndCancelIsInside() async throws {
        let fixture = try await SheetFixture(screen: .small)
        let reply = fixture.show(SheetFixture.showBody(title: "A Long List", activities: manyActivities))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        _ = try await fixture.waitForTree(pid: pid, "the activities") {
            SheetFixture.buttons($0).count == manyActivities.count + 1
        }
        let screen = Rect(x: 0, y: 0, width: fixture.screen.width, height: fixture.screen.height)
        let placed = try await fixture.windowRect(window)
        #expect(screen.contains(placed), "the window \(placed) is on the \(screen) screen")

        let inside = Rect(x: 0, y: 0, width: placed.width, height: placed.height)
        let controls = try await fixture.waitForControls(pid: pid, "Cancel and the page title") {
            control("Cancel", in: $0) != nil && control("A Long List", role: "label", in: $0) != nil
        }
        for (name, role) in [
            ("Cancel", "push button"), ("A Long List", "label"), ("Share App 1", "push button"),
            ("Action 1", "push button"),
        ] {
            let item = try #require(control(name, role: role, in: controls), "\(name) in \(controls)")
            #expect(inside.contains(item.bounds), "\(item) inside the window \(inside)")
        }
        // The Actions list scrolls inside the window instead of growing it past the screen.
        let last = try #require(control("Action 20", in: controls))
        #expect(last.bounds.y >= inside.maxY, "\(last) is below the visible part of the list")

        let path = try await fixture.screenshot(window: window, pid: pid, name: "sheet-small-screen")
        #expect(FileManager.default.fileExists(atPath: path))
        try await fixture.press("Escape", window: window)
        #expect(response(try await reply.value) == Sheet1.Response.cancelled.rawValue)
    }

    @Test func theFocusedShareActivityIsScrolledIntoViewFromTheKeyboard() async throws {
        let fixture = try await SheetFixture()
        let reply = fixture.show(SheetFixture.showBody(title: "A Long List", activities: manyActivities))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        _ = try await fixture.waitForTree(pid: pid, "the activities") {
            SheetFixture.buttons($0).count == manyActivities.count + 1
        }
        let size = try await fixture.windowRect(window)
        let inside = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let before = try await fixture.waitForControls(pid: pid, "the last share") {
            control("Share App 20", in: $0) != nil
        }
        let hidden = try #require(control("Share App 20", in: before))
        #expect(!inside.contains(hidden.bounds), "\(hidden) starts out of view")

        // Tab walks the row; the focused activity is scrolled into view.
        try await fixture.press(contentsOf: Array(repeating: "Tab", count: 19), window: window)
        let atEnd = try await fixture.waitForControls(pid: pid, "the last share focused and in view") {
            guard let last = control("Share App 20", in: $0) else { return false }
            return last.focused && inside.contains(last.bounds)
        }
        let first = try #require(control("Share App 1", in: atEnd))
        #expect(!inside.contains(first.bounds), "\(first) scrolled out of view")
        // The row says it scrolls: a classic scrollbar (an overlay indicator is 5 pixels
        // thin, hidden until hovered, and lies over the buttons' bottom edge) in a place of
        // its own under the buttons, so the names keep both lines, and above the Actions.
        let bar = try #require(sideways(scrollBarIn: atEnd), "a horizontal scroll bar in \(atEnd)")
        let button = try #require(control("Share App 20", in: atEnd))
        let name = try #require(control("Share App 20", role: "label", in: atEnd))
        let actions = try #require(control("Actions", role: "label", in: atEnd))
        #expect(bar.bounds.height >= 8, "\(bar) is a classic scrollbar")
        #expect(bar.bounds.y > button.bounds.maxY, "\(bar) below the button \(button)")
        #expect(name.bounds.maxY <= button.bounds.maxY, "\(name) inside its button \(button)")
        #expect(bar.bounds.maxY <= actions.bounds.y, "\(bar) above \(actions)")
        #expect(inside.contains(bar.bounds), "\(bar) inside the window")
        let path = try await fixture.screenshot(window: window, pid: pid, name: "sheet-40-activities-last")
        #expect(FileManager.default.fileExists(atPath: path))

        // The arrow keys walk back, and the row follows.
        try await fixture.press(contentsOf: Array(repeating: "Left", count: 19), window: window)
        _ = try await fixture.waitForControls(pid: pid, "the first share focused and in view") {
            guard let first = control("Share App 1", in: $0) else { return false }
            return first.focused && inside.contains(first.bounds)
        }
        try await fixture.press("Escape", window: window)
        #expect(response(try await reply.value) == Sheet1.Response.cancelled.rawValue)
    }

    @Test func aRowThatFitsHasNoScrollbar() async throws {
        let fixture = try await SheetFixture(screen: .small)
        let few = Array(manyActivities.prefix(3)) + Array(manyActivities.suffix(2))
        let reply = fixture.show(SheetFixture.showBody(activities: few))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        let controls = try await fixture.waitForControls(pid: pid, "the three shares") {
            control("Share App 3", in: $0) != nil && control("Action 20", in: $0) != nil
        }
        let size = try await fixture.windowRect(window)
        let inside = Rect(x: 0, y: 0, width: size.width, height: size.height)
        for index in 1...3 {
            let share = try #require(control("Share App \(index)", in: controls))
            #expect(inside.contains(share.bounds), "\(share) inside the window")
        }
        #expect(sideways(scrollBarIn: controls) == nil, "no scroll bar under a row that fits: \(controls)")
        try await fixture.press("Escape", window: window)
        #expect(response(try await reply.value) == Sheet1.Response.cancelled.rawValue)
    }

    @Test func aLongFailureMessageScrollsAndCloseStaysOnTheSmallScreen() async throws {
        let fixture = try await SheetFixture(screen: .small)
        let handle: Value = .objectPath("/org/activitybroker/Broker1/sheet/1")
        let reply = fixture.show(SheetFixture.showBody(activities: Array(manyActivities.prefix(4))))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        try await fixture.press("Return", window: window)
        #expect(response(try await reply.value) == Sheet1.Response.chosen.rawValue)
        let message = (1...60).map { "Line \($0) of what went wrong." }.joined(separator: "\n")
        try await fixture.call(Sheet1.update, [handle, .string("running"), .string("")])
        try await fixture.call(Sheet1.update, [handle, .string("failed"), .string(message)])
        let screen = Rect(x: 0, y: 0, width: fixture.screen.width, height: fixture.screen.height)
        let placed = try await fixture.windowRect(window)
        #expect(screen.contains(placed), "the window \(placed) is on the \(screen) screen")
        // Close has the focus and is scrolled into view at the end of the message.
        let inside = Rect(x: 0, y: 0, width: placed.width, height: placed.height)
        let controls = try await fixture.waitForControls(pid: pid, "Close focused and inside the window") {
            guard let close = control("Close", in: $0) else { return false }
            return close.focused && inside.contains(close.bounds)
        }
        let heading = try #require(control("Share App 1 did not finish", role: "label", in: controls))
        #expect(!inside.contains(heading.bounds), "\(heading) scrolled away: the failure scrolls")
        let path = try await fixture.screenshot(window: window, pid: pid, name: "sheet-small-screen-failure")
        #expect(FileManager.default.fileExists(atPath: path))
        try await fixture.press("Return", window: window)
        try await waitUntil("the window to close", interval: .milliseconds(50)) {
            !(try await fixture.hasVisibleWindow(pid: pid))
        }
    }

    @Test func onAn800x600ScreenWithPanelsTheSheetFitsTheWorkArea() async throws {
        let fixture = try await SheetFixture(screen: .svga)
        let panels = try await DesktopPanels(on: fixture, top: 32, bottom: 48)
        let reply = fixture.show(SheetFixture.showBody(title: "A Long List", activities: manyActivities))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        let controls = try await fixture.waitForControls(pid: pid, "Cancel") {
            control("Cancel", in: $0) != nil
        }
        let placed = try await fixture.windowRect(window)
        // No window manager here to move it below the top panel: its height is what counts.
        #expect(placed.height <= 600 - 32 - 48, "the window \(placed) is as tall as the work area at most")
        let cancel = try #require(control("Cancel", in: controls))
        #expect(Rect(x: 0, y: 0, width: placed.width, height: placed.height).contains(cancel.bounds))
        try await fixture.press("Escape", window: window)
        #expect(response(try await reply.value) == Sheet1.Response.cancelled.rawValue)
        withExtendedLifetime(panels) {}
    }
}
