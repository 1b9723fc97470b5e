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

    /// Regression: Ctrl-C's "share: cancelling" was appended to the spinner's line
    /// ("⠴ Sending with Slow Upload…^Cshare: cancelling"), and the second Ctrl-C left the
    /// spinner on the line the shell's prompt then shared.
    @Test func anInterjectedLineGetsALineOfItsOwn() throws {
        let pty = try PseudoTerminal()
        let spinner = Spinner(
            label: "Sending with Telegram…", output: pty.slave, environment: ["TERM": "xterm"],
            delay: 0, interval: 0.01)
        spinner.start()
        #expect(pty.readUntil { $0.contains("Sending with Telegram…") })
        let slave = pty.slave
        spinner.interject { _ = "share: cancelling\n".withCString { write(slave, $0, strlen($0)) } }
        // The spinner goes on below the message.
        #expect(pty.readUntil { text in
            text.range(of: "share: cancelling").map { text[$0.upperBound...].contains("Sending with Telegram…") } ?? false
        })
        spinner.stop()
        let text = pty.outputText
        let message = try #require(text.range(of: "share: cancelling"))
        #expect(text[..<message.lowerBound].hasSuffix("\r\u{1B}[2K"), "the spinner's line erased first")
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
