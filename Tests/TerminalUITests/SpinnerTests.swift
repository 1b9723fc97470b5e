// SpinnerTests: the spinner draws on a terminal only after its delay, never on a pipe.

import Foundation
import Glibc
import Testing
@testable import TerminalUI

@Suite struct SpinnerTests {
    @Test func drawsOnATerminalAndClearsForTheFinalLine() throws {
        let pty = try PseudoTerminal()
        let spinner = Spinner(
            label: "Sending with Telegram…", output: pty.slave, environment: ["TERM": "xterm"],
            delay: 0, interval: 0.01)
        #expect(spinner.isEnabled)
        spinner.start()
        #expect(pty.readUntil { $0.contains("Sending with Telegram…") })
        spinner.stop(finalLine: "Sent with Telegram.")
        #expect(pty.readUntil { $0.contains("Sent with Telegram.") })
        let text = pty.outputText
        let final = try #require(text.range(of: "Sent with Telegram."))
        // The spinner line was erased just before the final line, and nothing was drawn after it.
        #expect(text[..<final.lowerBound].hasSuffix("\r\u{1B}[2K"))
        #expect(!text[final.upperBound...].contains("Sending"))
    }

    @Test func quickJobsNeverDraw() throws {
        let pty = try PseudoTerminal()
        let spinner = Spinner(label: "Working", output: pty.slave, environment: ["TERM": "xterm"], delay: 60)
        spinner.start()
        spinner.stop(finalLine: "Done.")
        #expect(pty.readUntil { $0.contains("Done.") })
        #expect(!pty.outputText.contains("Working"))
        #expect(!pty.outputText.contains("\u{1B}"))
    }

    @Test func pipesOnlyGetTheFinalLine() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let spinner = Spinner(label: "Working", output: fds[1], environment: ["TERM": "xterm"], delay: 0, interval: 0.01)
        #expect(!spinner.isEnabled)
        spinner.start()
        spinner.stop(finalLine: "Done.")
        spinner.stop(finalLine: "Again.")
        close(fds[1])
        let data = FileHandle(fileDescriptor: fds[0], closeOnDealloc: false).readDataToEndOfFile()
        #expect(String(decoding: data, as: UTF8.self) == "Done.\n")
    }

    @Test func dumbTerminalsAreDisabled() throws {
        let pty = try PseudoTerminal()
        #expect(!Spinner(label: "x", output: pty.slave, environment: ["TERM": "dumb"]).isEnabled)
    }
}
