// ActivityPickerTerminalTests: the picker run on a real pseudo-terminal, keys typed on the master side.

import Foundation
import Glibc
import SystemSupport
import Testing

@testable import TerminalUI

@Suite struct ActivityPickerTerminalTests {
    static let picker = ActivityPicker(
        model: ActivityPickerModel(
            header: .init(title: "Example page", url: "https://example.com/"),
            entries: [
                .init(id: "telegram", title: "Telegram", group: .share),
                .init(id: "mail", title: "Mail", group: .share),
                .init(id: "copy", title: "Copy Link", group: .action),
            ]))

    /// Runs `picker` on the slave in a background thread, types `keys` once the first frame is
    /// drawn, and returns the result with the pseudo-terminal (for its output and attributes).
    static func run(
        _ picker: ActivityPicker = picker, typing keys: [UInt8], on pty: PseudoTerminal
    ) throws -> PickerResult? {
        let slave = pty.slave
        let outcome = Outcome<Result<PickerResult, any Error>>()
        Thread {
            let terminal = Terminal(input: slave, output: slave, environment: ["TERM": "xterm-256color"])
            outcome.set(Result { try picker.run(on: terminal) })
        }.start()
        // The frame's last line is the hint: once it is there, raw mode is on.
        #expect(pty.readUntil { $0.contains("Esc cancel") })
        pty.send(keys)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let result = outcome.wait(seconds: 0.02) { return try result.get() }
            pty.readAvailable(milliseconds: 20)
        }
        return nil
    }

    @Test func downArrowAndEnterChooseTheSecondEntry() throws {
        let pty = try PseudoTerminal()
        let before = pty.slaveAttributes()
        let result = try Self.run(typing: [0x1B, 0x5B, 0x42, 0x0D], on: pty)
        #expect(result == .chosen("mail"))
        #expect(sameAttributes(pty.slaveAttributes(), before))
        // Drawn with the cursor hidden, then shown again.
        #expect(pty.readUntil { $0.contains("\u{1B}[?25h") })
        #expect(pty.outputText.contains("\u{1B}[?25l"))
        #expect(pty.outputText.contains("Telegram"))
    }

    @Test func escapeCancels() throws {
        let pty = try PseudoTerminal()
        let before = pty.slaveAttributes()
        let result = try Self.run(typing: [0x1B], on: pty)
        #expect(result == .cancelled)
        #expect(sameAttributes(pty.slaveAttributes(), before))
    }

    @Test func ctrlCIsAKeyNotASignal() throws {
        let pty = try PseudoTerminal()
        let before = pty.slaveAttributes()
        #expect(try Self.run(typing: [0x03], on: pty) == .cancelled)
        #expect(sameAttributes(pty.slaveAttributes(), before))
    }

    @Test func digitThenEnterChooses() throws {
        let pty = try PseudoTerminal()
        #expect(try Self.run(typing: Array("3\r".utf8), on: pty) == .chosen("copy"))
    }

    @Test func ss3ArrowsWork() throws {
        let pty = try PseudoTerminal()
        #expect(try Self.run(typing: Array("\u{1B}OB\u{1B}OB\u{1B}OA\r".utf8), on: pty) == .chosen("mail"))
    }

    /// Regression (issue 13): a digit alone chose (at once, or after a one-second window).
    /// Digits typed with no Enter each redraw the picker (read, only selecting); Esc then
    /// cancels: nothing was chosen.
    @Test func digitsWithoutEnterChooseNothing() throws {
        let pty = try PseudoTerminal()
        let model = ActivityPickerModelTests.many(12)
        let slave = pty.slave
        let outcome = Outcome<Result<PickerResult, any Error>>()
        Thread {
            let terminal = Terminal(input: slave, output: slave, environment: ["TERM": "xterm-256color"])
            outcome.set(Result { try ActivityPicker(model: model).run(on: terminal) })
        }.start()
        #expect(pty.readUntil { $0.contains("Esc cancel") })
        pty.send(Array("2".utf8))
        // The picker redraws with entry 2 highlighted: the digit was read and only selected.
        // (Before the fix, 2 of 12 chose at once and erased the picker without a new frame.)
        #expect(pty.readUntil { $0.components(separatedBy: "Esc cancel").count > 2 })
        pty.send(Array("1".utf8))
        #expect(pty.readUntil { $0.components(separatedBy: "Esc cancel").count > 3 })
        pty.send([0x1B])
        #expect(try outcome.wait(seconds: 10)?.get() == .cancelled)
    }

    @Test func hangUpCancels() throws {
        let pty = try PseudoTerminal()
        let slave = pty.slave
        let outcome = Outcome<Result<PickerResult, any Error>>()
        Thread {
            let terminal = Terminal(input: slave, output: slave, environment: ["TERM": "xterm"])
            outcome.set(Result { try Self.picker.run(on: terminal) })
        }.start()
        #expect(pty.readUntil { $0.contains("Esc cancel") })
        // Reads on the slave now fail with EIO, which the picker takes as end of input. (The
        // slave's attributes cannot be read back after a hang-up, so only the result is checked.)
        pty.hangUp()
        #expect(try outcome.wait(seconds: 10)?.get() == .cancelled)
    }

    @Test func notATerminalThrows() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let terminal = Terminal(input: fds[0], output: fds[1], environment: ["TERM": "xterm"])
        #expect(!terminal.isInteractive)
        #expect(throws: SystemError.self) { try Self.picker.run(on: terminal) }
    }

    @Test func interactiveNeedsTTYsAndACapableTerm() throws {
        let pty = try PseudoTerminal(columns: 100, rows: 40)
        #expect(Terminal(input: pty.slave, output: pty.slave, environment: ["TERM": "xterm"]).isInteractive)
        #expect(!Terminal(input: pty.slave, output: pty.slave, environment: ["TERM": "dumb"]).isInteractive)
        #expect(!Terminal(input: pty.slave, output: pty.slave, environment: [:]).isInteractive)
        #expect(
            Terminal(input: pty.slave, output: pty.slave, environment: [:]).size
                == TerminalSize(columns: 100, rows: 40))
    }

    @Test func sizeFallsBackWithoutATerminal() {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(Terminal(input: fds[0], output: fds[1], environment: [:]).size == .fallback)
        #expect(
            Terminal(input: fds[0], output: fds[1], environment: ["COLUMNS": "120", "LINES": "50"]).size
                == TerminalSize(columns: 120, rows: 50))
    }

    @Test func rawModeAttributesAndRestore() throws {
        let pty = try PseudoTerminal()
        let before = pty.slaveAttributes()
        let terminal = Terminal(input: pty.slave, output: pty.slave, environment: ["TERM": "xterm"])
        try terminal.withRawMode(alternateScreen: true) {
            let raw = pty.slaveAttributes()
            #expect(raw.c_lflag & tcflag_t(ECHO | ICANON | ISIG) == 0)
            #expect(raw.c_oflag & tcflag_t(OPOST) != 0)
            #expect(terminal.isRaw)
        }
        #expect(!terminal.isRaw)
        #expect(sameAttributes(pty.slaveAttributes(), before))
        #expect(pty.readUntil { $0.contains("\u{1B}[?1049l") && $0.contains("\u{1B}[?25h") })
    }

    @Test func thrownErrorRestores() throws {
        struct Boom: Error {}
        let pty = try PseudoTerminal()
        let before = pty.slaveAttributes()
        let terminal = Terminal(input: pty.slave, output: pty.slave, environment: ["TERM": "xterm"])
        #expect(throws: Boom.self) { try terminal.withRawMode { throw Boom() } }
        #expect(sameAttributes(pty.slaveAttributes(), before))
    }

    @Test func deinitRestores() throws {
        let pty = try PseudoTerminal()
        let before = pty.slaveAttributes()
        do {
            let terminal = Terminal(input: pty.slave, output: pty.slave, environment: ["TERM": "xterm"])
            try terminal.enterRawMode()
            #expect(!sameAttributes(pty.slaveAttributes(), before))
        }
        #expect(sameAttributes(pty.slaveAttributes(), before))
    }

    @Test func windowChangeSignalAsksForARedraw() throws {
        let pty = try PseudoTerminal()
        let terminal = Terminal(input: pty.slave, output: pty.slave, environment: ["TERM": "xterm"])
        try terminal.withRawMode {
            // Swift Testing's workers block every signal: let this thread take SIGWINCH, and send
            // it to this thread only.
            var only = sigset_t()
            var previous = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, SIGWINCH)
            pthread_sigmask(SIG_UNBLOCK, &only, &previous)
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            pthread_kill(pthread_self(), SIGWINCH)
            #expect(terminal.readEvent(timeout: 10_000) == .redraw)
        }
    }

    @Test func signalHandlersRestoreTheSavedStateAndReenterRawMode() throws {
        let pty = try PseudoTerminal()
        let before = pty.slaveAttributes()
        let terminal = Terminal(input: pty.slave, output: pty.slave, environment: ["TERM": "xterm"])
        try terminal.enterRawMode(alternateScreen: true)
        defer { terminal.restore() }
        let raw = pty.slaveAttributes()
        let slot = try #require(terminal.registrySlot)
        // What the SIGTSTP/SIGINT handlers do, called directly (a real SIGTSTP would stop the
        // test process): back to the original attributes...
        RawModeRegistry.restoreTerminal(slot: slot, when: TCSANOW)
        #expect(sameAttributes(pty.slaveAttributes(), before))
        #expect(pty.readUntil { $0.contains("\u{1B}[?1049l") && $0.contains("\u{1B}[?25h") })
        // ...and what SIGCONT does: raw again.
        RawModeRegistry.reenterTerminal(slot: slot, when: TCSANOW)
        #expect(sameAttributes(pty.slaveAttributes(), raw))
    }

    @Test func twoRawSessionsOnOneTerminalUnwindToTheOriginal() throws {
        let pty = try PseudoTerminal()
        let before = pty.slaveAttributes()
        let outer = Terminal(input: pty.slave, output: pty.slave, environment: ["TERM": "xterm"])
        let inner = Terminal(input: pty.slave, output: pty.slave, environment: ["TERM": "xterm"])
        try outer.enterRawMode()
        try inner.enterRawMode()
        defer {
            inner.restore()
            outer.restore()
        }
        let slots = [try #require(outer.registrySlot), try #require(inner.registrySlot)]
        // What a terminating signal does: the inner session (saved = raw) first, then the outer.
        var order: [Int] = []
        RawModeRegistry.forEachActiveSlotNewestFirst { index in
            if slots.contains(index) { order.append(index) }
            if slots.contains(index) { RawModeRegistry.restoreTerminal(slot: index, when: TCSANOW) }
        }
        #expect(order == [slots[1], slots[0]])
        #expect(sameAttributes(pty.slaveAttributes(), before))
    }

    @Test func chooseUsesThePickerOnStandardErrorWhenOutputIsAPipe() throws {
        let pty = try PseudoTerminal()
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let slave = pty.slave
        let pipeOut = fds[1]
        let outcome = Outcome<Result<PickerResult?, any Error>>()
        Thread {
            outcome.set(
                Result {
                    try ActivityPicker.choose(
                        header: .init(title: "T", url: "https://example.com/"),
                        entries: [
                            .init(id: "a", title: "A", group: .share),
                            .init(id: "b", title: "B", group: .action),
                        ],
                        input: slave, output: pipeOut, errorOutput: slave, environment: ["TERM": "xterm"])
                })
        }.start()
        #expect(pty.readUntil { $0.contains("Esc cancel") })
        pty.send("2\r")
        let result = try #require(outcome.wait(seconds: 10))
        #expect(try result.get() == .chosen("b"))
    }

    @Test func chooseUsesTheNumberedPromptOnADumbTerminal() throws {
        let pty = try PseudoTerminal()
        let slave = pty.slave
        let outcome = Outcome<Result<PickerResult?, any Error>>()
        Thread {
            outcome.set(
                Result {
                    try ActivityPicker.choose(
                        header: .init(title: "T", url: "https://example.com/"),
                        entries: [
                            .init(id: "a", title: "A", group: .share),
                            .init(id: "b", title: "B", group: .action),
                        ],
                        input: slave, output: slave, errorOutput: slave, environment: ["TERM": "dumb"])
                })
        }.start()
        #expect(pty.readUntil { $0.contains("Choose 1-2 (Enter to cancel): ") })
        #expect(!pty.outputText.contains("\u{1B}"))
        pty.send("2\n")
        let result = try #require(outcome.wait(seconds: 10))
        #expect(try result.get() == .chosen("b"))
    }

    @Test func chooseWithoutATerminalAsksNobody() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let result = try ActivityPicker.choose(
            header: .init(title: "T", url: "u"), entries: [.init(id: "a", title: "A", group: .share)],
            input: fds[0], output: fds[1], errorOutput: fds[1], environment: ["TERM": "xterm"])
        #expect(result == nil)
    }
}
