// A plain mouse's wheel over the overflowing Share row scrolls it sideways; over the Actions list it scrolls the list, not the row.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

private func response(_ reply: [Value]) -> UInt32? { reply.first?.uint32 }

/// The wheel as a mouse without a horizontal wheel turns it: X buttons 4 (up) and 5 (down)
/// clicked by xdotool, the pointer placed over a control found through AT-SPI.
@Suite(.serialized) struct ShareRowWheelTests {
    @Test func theWheelOverTheShareRowScrollsItSideways() async throws {
        let fixture = try await SheetFixture()
        let reply = fixture.show(SheetFixture.showBody(title: "A Long List", activities: manyActivities))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        let placed = try await fixture.windowRect(window)
        let inside = Rect(x: 0, y: 0, width: placed.width, height: placed.height)
        let before = try await fixture.waitForControls(pid: pid, "the first and the last share") {
            control("Share App 1", in: $0) != nil && control("Share App 20", in: $0) != nil
        }
        let hidden = try #require(control("Share App 20", in: before))
        #expect(!inside.contains(hidden.bounds), "\(hidden) starts out of view")

        // Over the row, each click of the wheel down (away from the user) moves the row on,
        // towards the hidden shares, until the last is in view.
        let second = try #require(control("Share App 2", in: before))
        var clicks = 0
        var scrolled = before
        let bar = try #require(sideways(scrollBarIn: before), "the row's scroll bar in \(before)")
        while !isInView(control("Share App 20", in: scrolled), above: bar) {
            clicks += 1
            try #require(clicks <= 60, "the last share still hidden after 60 clicks: \(scrolled)")
            try await wheel(fixture, over: second, in: placed, button: 5, clicks: 1)
            scrolled = try await fixture.waitForControls(pid: pid, "the row after \(clicks) clicks") {
                control("Share App 20", in: $0)?.bounds.x != control("Share App 20", in: scrolled)?.bounds.x
            }
        }
        #expect(clicks > 1, "one click moves the row by a step, not to its end")
        let first = try #require(control("Share App 1", in: scrolled))
        #expect(!inside.contains(first.bounds), "\(first) scrolled out of view to the left")
        // The focus did not move: the wheel scrolls, it does not select.
        #expect(first.focused, "\(scrolled)")
        let last = try #require(control("Share App 20", in: scrolled))
        #expect(last.bounds.y == hidden.bounds.y, "the lists did not scroll: \(hidden) → \(last)")

        // At the row's end the next clicks go on to the lists, which scroll up. (Three: under
        // Xvfb the first click after a run of single ones was seen to go missing, before GTK.)
        try await wheel(fixture, over: second, in: placed, button: 5, clicks: 3)
        let chained = try await fixture.waitForControls(pid: pid, "the lists scrolled") {
            guard let moved = control("Share App 20", in: $0) else { return false }
            return moved.bounds.y < last.bounds.y
        }
        let lastChained = try #require(control("Share App 20", in: chained))
        #expect(lastChained.bounds.x == last.bounds.x, "\(last) → \(lastChained): the row stayed at its end")

        // The wheel up scrolls the row back to its start and the lists back to the top, in
        // either order: where the row was, the pointer is over the lists or the row.
        try await wheel(fixture, over: second, in: placed, button: 4, clicks: 60)
        _ = try await fixture.waitForControls(pid: pid, "the first share back in view") {
            guard let first = control("Share App 1", in: $0) else { return false }
            return inside.contains(first.bounds)
        }
        try await fixture.press("Escape", window: window)
        #expect(response(try await reply.value) == Sheet1.Response.cancelled.rawValue)
    }

    @Test func theWheelOverTheActionsListScrollsTheListAndNotTheRow() async throws {
        let fixture = try await SheetFixture()
        let reply = fixture.show(SheetFixture.showBody(title: "A Long List", activities: manyActivities))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        let placed = try await fixture.windowRect(window)
        let before = try await fixture.waitForControls(pid: pid, "the shares and the actions") {
            control("Share App 20", in: $0) != nil && control("Action 2", in: $0) != nil
        }
        let share = try #require(control("Share App 20", in: before))
        let action = try #require(control("Action 2", in: before))
        try await wheel(fixture, over: action, in: placed, button: 5, clicks: 3)
        // The list scrolled up under the pointer (the clicks arrived)…
        let after = try await fixture.waitForControls(pid: pid, "the Actions list scrolled") {
            guard let moved = control("Action 2", in: $0) else { return false }
            return moved.bounds.y < action.bounds.y
        }
        // …and the row moved with it, up, but not sideways.
        let shareAfter = try #require(control("Share App 20", in: after))
        #expect(shareAfter.bounds.x == share.bounds.x, "\(share) → \(shareAfter)")
        try await fixture.press("Escape", window: window)
        #expect(response(try await reply.value) == Sheet1.Response.cancelled.rawValue)
    }

    /// A row that fits has nothing to scroll: on a small screen the wheel over it scrolls the
    /// lists, as it did before the row took the wheel.
    @Test func theWheelOverARowThatFitsScrollsTheLists() async throws {
        let fixture = try await SheetFixture(screen: .small)
        let offered = Array(manyActivities.prefix(3)) + Array(manyActivities.suffix(20))
        let reply = fixture.show(SheetFixture.showBody(activities: offered))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        let placed = try await fixture.windowRect(window)
        let before = try await fixture.waitForControls(pid: pid, "the shares") {
            control("Share App 3", in: $0) != nil && control("Action 20", in: $0) != nil
        }
        let share = try #require(control("Share App 2", in: before))
        try await wheel(fixture, over: share, in: placed, button: 5, clicks: 2)
        let after = try await fixture.waitForControls(pid: pid, "the lists scrolled up") {
            guard let moved = control("Share App 2", in: $0) else { return false }
            return moved.bounds.y < share.bounds.y
        }
        let shareAfter = try #require(control("Share App 2", in: after))
        #expect(shareAfter.bounds.x == share.bounds.x, "\(share) → \(shareAfter)")
        try await fixture.press("Escape", window: window)
        #expect(response(try await reply.value) == Sheet1.Response.cancelled.rawValue)
    }

    /// Whether `control` is visible and lies between the left and right ends of `bar`, the
    /// row's scroll bar, as wide as the row's visible part.
    private func isInView(_ control: PlacedControl?, above bar: PlacedControl) -> Bool {
        guard let control else { return false }
        return control.bounds.x >= bar.bounds.x && control.bounds.maxX <= bar.bounds.maxX
    }

    /// Moves the pointer to the middle of `target` (window coordinates of the window at
    /// `window`) and clicks the wheel `button` `clicks` times. Not `mousemove --sync`: it
    /// waits for the pointer to move, forever when it is there already. The X server handles
    /// the motion and the clicks in the order sent.
    private func wheel(
        _ fixture: SheetFixture, over target: PlacedControl, in window: Rect, button: Int, clicks: Int
    ) async throws {
        let x = window.x + target.bounds.x + target.bounds.width / 2
        let y = window.y + target.bounds.y + target.bounds.height / 2
        try await fixture.tool(
            "xdotool",
            ["mousemove", "\(x)", "\(y)", "click", "--repeat", "\(clicks)", "--delay", "15", "\(button)"])
    }
}
