// ActivityPickerRendererTests: layout, numbering, clipping, sanitizing and scrolling of picker lines.

import Testing

@testable import TerminalUI

@Suite struct ActivityPickerRendererTests {
    @Test func plainLayout() {
        let lines = ActivityPickerRenderer(size: TerminalSize(columns: 60, rows: 24), styled: false)
            .lines(for: ActivityPickerModelTests.mixed())
        #expect(
            lines == [
                "Example",
                "https://example.com/",
                "Share",
                "› 1  ✈  Telegram" + String(repeating: " ", count: 43),
                "  2     Mail",
                "  3     Matrix",
                "Actions",
                "  4     Copy Link",
                "  5     Open in Browser",
                ActivityPickerRenderer.hint(count: 5),
            ])
    }

    /// Regression (issue 13): the hint said a number chooses while only Enter should.
    @Test func theHintSaysDigitsSelectAndEnterChooses() {
        #expect(ActivityPickerRenderer.hint(count: 12) == "↑↓ or 1-12 select · Enter choose · Esc cancel")
        #expect(ActivityPickerRenderer.hint(count: 1) == "↑↓ or 1 select · Enter choose · Esc cancel")
    }

    @Test func styledLinesUseBoldDimAndReverse() {
        let lines = ActivityPickerRenderer(size: TerminalSize(columns: 60, rows: 24))
            .lines(for: ActivityPickerModelTests.mixed())
        #expect(lines[0] == "\u{1B}[1mExample\u{1B}[0m")
        #expect(lines[1] == "\u{1B}[2mhttps://example.com/\u{1B}[0m")
        #expect(lines[3].hasPrefix("\u{1B}[7m› 1"))
    }

    @Test func everyLineFitsTheWidth() {
        var entries = ActivityPickerModelTests.mixed().entries
        entries[1].title = String(repeating: "Very long title ", count: 10)
        let model = ActivityPickerModel(
            header: .init(
                title: String(repeating: "T", count: 100),
                url: "https://example.com/" + String(repeating: "p/", count: 60)),
            entries: entries, status: String(repeating: "s", count: 200))
        let lines = ActivityPickerRenderer(size: TerminalSize(columns: 30, rows: 24), styled: false).lines(
            for: model)
        for line in lines { #expect(DisplayWidth.of(line) <= 29) }
        #expect(lines[0].hasSuffix("…"))
        #expect(lines[1].hasSuffix("…"))
        #expect(lines.last?.hasSuffix("…") == true)
    }

    @Test func maliciousTitlesCannotInjectEscapes() {
        let model = ActivityPickerModel(
            header: .init(title: "Evil\u{1B}]0;owned\u{07}\u{1B}[2J", url: "https://x/\u{1B}[31m\u{9B}H"),
            entries: [.init(id: "a", title: "A\u{1B}[1A\u{1B}[K\rB", glyph: "\u{1B}[5m", group: .share)],
            status: "\u{1B}[?1049h")
        let lines = ActivityPickerRenderer(size: TerminalSize(columns: 60, rows: 24), styled: false).lines(
            for: model)
        let all = lines.joined()
        #expect(!all.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(lines[0] == "Evil")
    }

    @Test func tallListsScrollToKeepTheSelectionVisible() {
        var model = ActivityPickerModelTests.many(30)
        for _ in 0..<25 { _ = model.handle(.down) }
        let lines = ActivityPickerRenderer(size: TerminalSize(columns: 40, rows: 10), styled: false).lines(
            for: model)
        #expect(lines.count <= 9)
        #expect(lines.contains { $0.hasPrefix("› 26") })
    }

    @Test func shortWindowsKeepEntriesBeforeHintAndURL() {
        var model = ActivityPickerModelTests.mixed()
        _ = model.handle(.end)
        let lines = ActivityPickerRenderer(size: TerminalSize(columns: 40, rows: 5), styled: false).lines(
            for: model)
        #expect(lines.count <= 4)
        #expect(lines.first == "Example")
        #expect(!lines.contains(ActivityPickerRenderer.hint(count: 5)))
        #expect(lines.contains { $0.hasPrefix("› 5") })
    }
}
