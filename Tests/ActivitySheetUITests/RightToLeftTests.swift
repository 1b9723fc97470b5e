// The sheet in a right-to-left language: the Share row starts at the right, the layout is mirrored, the arrows follow what is drawn.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

private func response(_ reply: [Value]) -> UInt32? { reply.first?.uint32 }

/// Hebrew (`he_IL.UTF-8` in the sheet's environment). The sheet has no Hebrew table, so its
/// own words are English; the page title is Hebrew. The locale is not even installed on the
/// test machine, so GTK's own default direction stays left to right: what is mirrored here is
/// mirrored by the sheet (`SheetDirection`, `LayoutDirection`).
@Suite(.serialized) struct RightToLeftTests {
    @Test func inHebrewTheShareRowRunsFromTheRightAndTheArrowsFollowIt() async throws {
        let fixture = try await SheetFixture(language: "he_IL.UTF-8")
        let title = "חדשות היום"
        let reply = fixture.show(SheetFixture.showBody(title: title, activities: manyActivities))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        #expect(try await fixture.title(window: window) == "Share – \(title)")
        let placed = try await fixture.windowRect(window)
        let inside = Rect(x: 0, y: 0, width: placed.width, height: placed.height)
        let controls = try await fixture.waitForControls(pid: pid, "the shares, the scroll bar and Cancel") {
            control("Share App 20", in: $0) != nil && sideways(scrollBarIn: $0) != nil
                && control("Cancel", in: $0) != nil
        }
        // The first activity at the right edge, the next to its left, the last hidden on the left.
        let first = try #require(control("Share App 1", in: controls))
        let second = try #require(control("Share App 2", in: controls))
        let last = try #require(control("Share App 20", in: controls))
        #expect(first.bounds.x > second.bounds.x, "\(first) right of \(second)")
        #expect(inside.contains(first.bounds), "\(first) in view")
        #expect(first.bounds.maxX > inside.width * 3 / 4, "\(first) at the right edge of \(inside)")
        #expect(last.bounds.maxX <= 0, "\(last) hidden beyond the left edge")
        #expect(first.focused, "the focus starts on the first activity: \(controls)")
        // The header bar is mirrored: Cancel, packed at its start, is on the right.
        let cancel = try #require(control("Cancel", in: controls))
        #expect(cancel.bounds.x > inside.width / 2, "\(cancel) on the right of \(inside)")

        // The scrollbar's slider starts at the right end: that half of the bar is the darker.
        let bar = try #require(sideways(scrollBarIn: controls))
        let path = try await fixture.screenshot(window: window, pid: pid, name: "sheet-rtl")
        let left = try await brightness(
            fixture, path,
            Rect(x: bar.bounds.x, y: bar.bounds.y, width: bar.bounds.width / 2, height: bar.bounds.height))
        let right = try await brightness(
            fixture, path,
            Rect(
                x: bar.bounds.x + bar.bounds.width / 2, y: bar.bounds.y, width: bar.bounds.width / 2,
                height: bar.bounds.height))
        #expect(right < left - 0.02, "the slider on the right: left half \(left), right half \(right)")

        // Left goes to the next activity, drawn to the left; Right comes back.
        try await fixture.press("Left", window: window)
        _ = try await fixture.waitForControls(pid: pid, "Share App 2 focused") {
            control("Share App 2", in: $0)?.focused == true
        }
        try await fixture.press("Right", window: window)
        _ = try await fixture.waitForControls(pid: pid, "Share App 1 focused again") {
            control("Share App 1", in: $0)?.focused == true
        }
        // Left to the end of the row: the last share, scrolled into view from the left.
        try await fixture.press(contentsOf: Array(repeating: "Left", count: 19), window: window)
        let atEnd = try await fixture.waitForControls(pid: pid, "the last share focused and in view") {
            guard let last = control("Share App 20", in: $0) else { return false }
            return last.focused && inside.contains(last.bounds)
        }
        let firstAtEnd = try #require(control("Share App 1", in: atEnd))
        #expect(firstAtEnd.bounds.x >= inside.maxX, "\(firstAtEnd) scrolled out on the right")
        try await fixture.press("Escape", window: window)
        #expect(response(try await reply.value) == Sheet1.Response.cancelled.rawValue)
    }

    /// The wheel goes forward in reading order, as Shift+wheel does in GTK: down brings in
    /// the shares hidden on the left.
    @Test func inHebrewTheWheelDownScrollsTheRowTowardsItsLeftEnd() async throws {
        let fixture = try await SheetFixture(language: "he_IL.UTF-8")
        let reply = fixture.show(SheetFixture.showBody(activities: manyActivities))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        let placed = try await fixture.windowRect(window)
        let inside = Rect(x: 0, y: 0, width: placed.width, height: placed.height)
        let controls = try await fixture.waitForControls(pid: pid, "the shares and the scroll bar") {
            control("Share App 20", in: $0) != nil && sideways(scrollBarIn: $0) != nil
        }
        let second = try #require(control("Share App 2", in: controls))
        try await fixture.tool(
            "xdotool",
            [
                "mousemove", "\(placed.x + second.bounds.x + second.bounds.width / 2)",
                "\(placed.y + second.bounds.y + second.bounds.height / 2)", "click", "--repeat", "60",
                "--delay",
                "15", "5",
            ])
        // Sideways only: past the row's end the clicks go on to the lists, which scroll it up.
        let bar = try #require(sideways(scrollBarIn: controls))
        let scrolled = try await fixture.waitForControls(pid: pid, "the last share scrolled into view") {
            guard let last = control("Share App 20", in: $0) else { return false }
            return last.bounds.x >= bar.bounds.x && last.bounds.maxX <= bar.bounds.maxX
        }
        let first = try #require(control("Share App 1", in: scrolled))
        #expect(first.bounds.x >= inside.maxX, "\(first) scrolled out on the right")
        try await fixture.press("Escape", window: window)
        #expect(response(try await reply.value) == Sheet1.Response.cancelled.rawValue)
    }

    /// The mean brightness (0 to 1) of `area` of the picture at `path`.
    private func brightness(_ fixture: SheetFixture, _ path: String, _ area: Rect) async throws -> Double {
        let output = try await fixture.tool(
            "convert",
            [
                path, "-crop", "\(area.width)x\(area.height)+\(area.x)+\(area.y)", "+repage", "-colorspace",
                "gray",
                "-format", "%[fx:mean]", "info:",
            ])
        return try #require(
            Double(output.trimmingCharacters(in: .whitespacesAndNewlines)), "convert said \(output)")
    }
}
