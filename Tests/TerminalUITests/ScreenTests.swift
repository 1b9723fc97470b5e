// ScreenTests: colors in the 256-color palette, SGR sequences, and the screen frame builder.

import Testing
@testable import TerminalUI

@Suite struct ScreenTests {
    @Test func mapsTo256Colors() {
        #expect(TerminalColor(red: 255, green: 0, blue: 0).ansi256Index == 196)
        #expect(TerminalColor(red: 0, green: 0, blue: 0).ansi256Index == 16)
        #expect(TerminalColor(red: 255, green: 255, blue: 255).ansi256Index == 231)
        #expect(TerminalColor(red: 128, green: 128, blue: 128).ansi256Index == 244)
    }

    @Test func sequencesFollowColorSupport() {
        let orange = TerminalColor(red: 255, green: 128, blue: 0)
        #expect(orange.foreground(.truecolor) == "\u{1B}[38;2;255;128;0m")
        #expect(orange.foreground(.ansi256) == "\u{1B}[38;5;208m")
        #expect(orange.background(.none) == "")
        let style = TextStyle([.bold], foreground: orange)
        #expect(style.apply("hi", colors: .none) == "\u{1B}[1mhi\u{1B}[0m")
        #expect(style.apply("hi", colors: .truecolor) == "\u{1B}[1m\u{1B}[38;2;255;128;0mhi\u{1B}[0m")
        #expect(TextStyle.plain.apply("hi", colors: .truecolor) == "hi")
    }

    @Test func detectsColorSupport() {
        #expect(ColorSupport.detect(environment: [:]) == .ansi256)
        #expect(ColorSupport.detect(environment: ["COLORTERM": "truecolor"]) == .truecolor)
        #expect(ColorSupport.detect(environment: ["COLORTERM": "truecolor", "NO_COLOR": "1"]) == .none)
    }

    @Test func screenClipsAndSanitizes() {
        var screen = Screen(size: TerminalSize(columns: 10, rows: 3))
        screen.clear()
        screen.put("hello world, long", row: 0)
        screen.line("x\u{1B}[2Jy", row: 1)
        screen.put("last row", row: 2, column: 4)
        screen.put("off screen", row: 5)
        #expect(screen.output == "\u{1B}[0m\u{1B}[2J\u{1B}[H"
            + "\u{1B}[1;1Hhello wor…"
            + "\u{1B}[2;1H\u{1B}[2K\u{1B}[2;1Hxy"
            + "\u{1B}[3;5Hlast…")
    }

    @Test func filledLinesCoverTheRow() {
        var screen = Screen(size: TerminalSize(columns: 6, rows: 3))
        screen.line("ab", row: 0, style: .reverse, fill: true)
        #expect(screen.output == "\u{1B}[1;1H\u{1B}[2K\u{1B}[7mab    \u{1B}[0m")
    }
}
