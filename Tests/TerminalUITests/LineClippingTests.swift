// Clipping for full-screen rows: the end of a host kept, styled lines cut without wrapping.

import Testing

@testable import TerminalUI

@Suite struct LineClippingTests {
    @Test func truncateLeadingKeepsTheEnd() {
        #expect(DisplayWidth.truncateLeading("accounts.google.com.evil.", toWidth: 10) == "…com.evil.")
        #expect(DisplayWidth.truncateLeading("short.", toWidth: 10) == "short.")
        #expect(DisplayWidth.truncateLeading("abc", toWidth: 1) == "…")
        #expect(DisplayWidth.truncateLeading("abc", toWidth: 0) == "")
        // A wide character that does not fit whole is left out, never half drawn.
        #expect(DisplayWidth.truncateLeading("a漢字", toWidth: 4) == "…字")
    }

    /// Regression (share browse review, item 1): rows were appended raw, so a row wider than
    /// the terminal wrapped onto the next one. `styledLine` clips, keeps the styling balanced.
    @Test func styledLinesNeverPassTheRightEdge() {
        let bold = "\u{1B}[1m"
        let reset = "\u{1B}[0m"
        #expect(DisplayWidth.clipStyled(bold + "hello" + reset, toWidth: 10) == bold + "hello" + reset)
        #expect(
            DisplayWidth.clipStyled(bold + "hello" + reset + " world", toWidth: 7) == bold + "hello" + reset
                + " w" + reset)
        #expect(DisplayWidth.clipStyled("漢字漢字", toWidth: 5) == "漢字" + reset)
        // Whatever got through unsanitized is dropped: only CSI sequences are passed.
        #expect(DisplayWidth.clipStyled("a\u{1B}]0;title\u{07}b\u{202E}c", toWidth: 20) == "a]0;titlebc")

        var screen = Screen(size: TerminalSize(columns: 8, rows: 2))
        screen.styledLine(bold + "0123456789" + reset, row: 1)
        #expect(screen.output == "\u{1B}[2;1H\u{1B}[2K" + bold + "0123456" + reset + reset)
        screen.styledLine("x", row: 2)
        #expect(!screen.output.hasSuffix("x"), "a row off the screen is not drawn")
    }
}
