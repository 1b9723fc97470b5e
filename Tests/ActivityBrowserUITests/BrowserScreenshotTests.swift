// Pictures of the browser window (reader view, tinted header, dark theme) kept under .build/screenshots.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

@Suite(.serialized) struct BrowserScreenshotTests {
    @Test func anArticleOffersReaderAndEntersItWhenAsked() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(
            fixture.url("/article"), options: ["enters_reader_if_available": .boolean(true)])
        _ = try await fixture.nextEvent()
        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        let tree = try await fixture.waitForTree(pid: pid, "the Reader button") {
            $0.contains { $0.hasPrefix("push button\tReader") }
        }
        #expect(tree.contains { $0.hasPrefix("push button\tReader") })
        try await fixture.waitForTitle("A Long Article", window: window)
        // The article view is drawn in a second web view once the page's text is extracted.
        let path = try await fixture.screenshot(window: window, name: "browser-reader") {
            try await fixture.meanColor($0, region: "200x100+10+120") != "#ffffff"
        }
        let background = try await fixture.meanColor(path, region: "200x100+10+120")
        #expect(background != "#ffffff", "the reader's paper colour, not the page's white: \(background)")
    }

    @Test func theTintsColourTheHeaderBarAndTheDismissButton() async throws {
        let fixture = try await BrowserFixture()
        try await fixture.open(
            fixture.url("/page/b"),
            options: [
                "bar_tint": .string("#1c71d8"), "control_tint": .string("#ffd700"),
                "dismiss_button_style": .string("close"),
            ])
        _ = try await fixture.nextEvent()
        let pid = try await fixture.browserPID()
        let window = try await fixture.window(pid: pid)
        let tree = try await fixture.waitForTree(pid: pid, "the Close button") {
            $0.contains { $0.hasPrefix("push button\tClose") }
        }
        #expect(!tree.contains { $0.hasPrefix("push button\tDone") })
        try await fixture.waitForTitle("Page B", window: window)
        let path = try await fixture.screenshot(window: window, name: "browser-tinted")
        let bar = try await fixture.meanColor(path, region: "40x10+300+15")
        #expect(bar == "#1c71d8", "the header bar in the bar tint: \(bar)")
    }

    @Test func theDarkThemeDarkensTheHeaderBar() async throws {
        let fixture = try await BrowserFixture(theme: .dark)
        let (pid, window) = try await fixture.openWindow("/dark", title: "Dark Page")
        let path = try await fixture.screenshot(window: window, name: "browser-dark")
        let header = try await fixture.meanBrightness(path, region: "300x30+300+5")
        #expect(header < 0.4, "dark header bar: \(header)")
    }
}
