// Pictures of the sheet (light, dark, short and long lists, a long title, German) kept under .build/screenshots.
import ActivityBrokerInterface
import DBus
import Foundation
import TestSupport
import Testing

/// One screenshot: how the sheet is shown and what the picture must show.
struct ScreenshotCase: Sendable, CustomTestStringConvertible {
    let name: String
    let theme: SheetFixture.Theme
    let language: String
    let title: String
    let count: Int
    var testDescription: String { name }
}

private let cases = [
    ScreenshotCase(
        name: "sheet-light", theme: .light, language: "en_US.UTF-8", title: "Today's News", count: 6),
    ScreenshotCase(
        name: "sheet-dark", theme: .dark, language: "en_US.UTF-8", title: "Today's News", count: 6),
    ScreenshotCase(
        name: "sheet-2-activities", theme: .light, language: "en_US.UTF-8", title: "A Short List", count: 2),
    ScreenshotCase(
        name: "sheet-40-activities", theme: .light, language: "en_US.UTF-8", title: "A Long List", count: 40),
    ScreenshotCase(
        name: "sheet-long-title", theme: .light, language: "en_US.UTF-8",
        title: String(repeating: "A very long page title that goes on and on ", count: 8), count: 6),
    ScreenshotCase(
        name: "sheet-german", theme: .light, language: "de_DE.UTF-8", title: "Heutige Nachrichten", count: 6),
]

/// `count` activities: the first half shares, the rest actions, with real and unknown icons.
private func activities(_ count: Int) -> [[String: Value]] {
    let shares = [
        ("Telegram", "telegram"), ("Mail", "mail-send"), ("Signal", "signal-desktop"), ("Mastodon", ""),
    ]
    let actions = [
        ("Copy Link", "edit-copy"), ("Open in Browser", "web-browser"),
        ("Add to Reading List", "bookmark-new"),
    ]
    return (0..<count).map { index in
        if index < (count + 1) / 2 {
            let (name, icon) = shares[index % shares.count]
            return SheetFixture.activity(
                "share.\(index)", index < shares.count ? name : "\(name) \(index)", "share", icon: icon)
        }
        let (name, icon) = actions[index % actions.count]
        return SheetFixture.activity(
            "action.\(index)", index < 10 ? name : "\(name) \(index)", "action", icon: icon)
    }
}

@Suite(.serialized) struct ScreenshotTests {
    @Test(arguments: cases)
    func screenshot(_ shot: ScreenshotCase) async throws {
        let fixture = try await SheetFixture(theme: shot.theme, language: shot.language)
        let offered = activities(shot.count)
        let reply = fixture.show(SheetFixture.showBody(title: shot.title, activities: offered))
        let pid = try await fixture.sheetPID()
        let window = try await fixture.window(pid: pid)
        let tree = try await fixture.waitForTree(pid: pid, "the activities") {
            SheetFixture.buttons($0).count == offered.count + 1
        }
        let path = try await fixture.screenshot(window: window, pid: pid, name: shot.name)
        #expect(FileManager.default.fileExists(atPath: path))

        let brightness = try await fixture.meanBrightness(path)
        if shot.theme == .dark {
            #expect(brightness < 0.4, "dark: mean brightness \(brightness)")
        } else {
            #expect(brightness > 0.6, "light: mean brightness \(brightness)")
        }
        // However long the list or the title, the window keeps a reasonable size (it scrolls
        // and ellipsizes instead of growing).
        let geometry = try await fixture.tool("xdotool", ["getwindowgeometry", "--shell", window])
        let size = Dictionary(
            uniqueKeysWithValues: geometry.split(separator: "\n").compactMap { line -> (String, Int)? in
                let parts = line.split(separator: "=")
                return parts.count == 2 ? (String(parts[0]), Int(parts[1]) ?? 0) : nil
            })
        #expect((size["WIDTH"] ?? 0) <= 600, "\(geometry)")
        #expect((size["HEIGHT"] ?? 0) <= 700, "\(geometry)")
        if shot.language.hasPrefix("de") {
            #expect(SheetFixture.buttons(tree).last == "Abbrechen")
            #expect(try await fixture.title(window: window) == "Teilen – \(shot.title)")
        }
        try await fixture.press("Escape", window: window)
        #expect(response(try await reply.value) == Sheet1.Response.cancelled.rawValue)
    }
}

private func response(_ reply: [Value]) -> UInt32? { reply.first?.uint32 }
