// SignalRestoreTests: real signals to a child process in raw mode on a pseudo-terminal restore the terminal.

import Foundation
import Glibc
import TestSupport
import Testing
@testable import TerminalUI

/// The parent tests start this test binary again as a child that runs only
/// `childEntersRawModeAndSignalsItself`, on the slave of a pseudo-terminal the parent watches:
/// signals that kill or stop the process cannot be sent to the test process itself.
@Suite(.serialized) struct SignalRestoreTests {
    static let childTTY = ProcessInfo.processInfo.environment["TERMINALUI_CHILD_TTY"]
    static let childTest = ProcessInfo.processInfo.environment["TERMINALUI_CHILD_TEST"]
    static let childSignal = ProcessInfo.processInfo.environment["TERMINALUI_CHILD_SIGNAL"].flatMap { Int32($0) }

    /// Child side only (skipped in a normal run): raw mode, then the signal to itself.
    @Test(.enabled(if: childTest == "childEntersRawModeAndSignalsItself"))
    func childEntersRawModeAndSignalsItself() throws {
        let path = try #require(Self.childTTY)
        let signal = try #require(Self.childSignal)
        let fd = open(path, O_RDWR | O_NOCTTY)
        try #require(fd >= 0)
        let terminal = Terminal(input: fd, output: fd, environment: ["TERM": "xterm"])
        try terminal.enterRawMode(alternateScreen: true)
        var raw = termios()
        _ = tcgetattr(fd, &raw)
        terminal.write("RAW-READY\r\n")
        // Swift Testing blocks signals in its workers: take these on this thread.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        sigaddset(&set, SIGCONT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        pthread_kill(pthread_self(), signal)
        // Only a stop comes back here, after the parent's SIGCONT, which asks for a redraw.
        #expect(terminal.readEvent(timeout: 10_000) == .redraw)
        var now = termios()
        _ = tcgetattr(fd, &now)
        #expect(sameAttributes(now, raw))
        terminal.write("RESUMED\r\n")
        terminal.restore()
    }

    /// Child side only (skipped in a normal run): the picker, with job-control signals let through.
    @Test(.enabled(if: childTest == "childRunsThePicker")) func childRunsThePicker() throws {
        let path = try #require(Self.childTTY)
        let fd = open(path, O_RDWR | O_NOCTTY)
        try #require(fd >= 0)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        sigaddset(&set, SIGCONT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        let terminal = Terminal(input: fd, output: fd, environment: ["TERM": "xterm"])
        let result = try ActivityPickerTerminalTests.picker.run(on: terminal)
        terminal.write("RESULT \(result)\r\n")
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP, SIGQUIT])
    func terminatingSignalRestoresThenKills(signal: Int32) async throws {
        try await offPool {
            let pty = try PseudoTerminal()
            let before = pty.slaveAttributes()
            let child = try ChildProcess(tty: pty.slaveName, signal: signal)
            defer { child.killIfRunning() }
            #expect(pty.readUntil { $0.contains("RAW-READY") })
            let status = try #require(child.wait(untraced: false, seconds: 20), "child did not end; output: \(child.output())")
            #expect(status.signal == signal, "output: \(child.output())")
            #expect(sameAttributes(pty.slaveAttributes(), before))
            #expect(pty.readUntil { text in
                guard let ready = text.range(of: "RAW-READY") else { return false }
                let after = text[ready.upperBound...]
                return after.contains("\u{1B}[?1049l") && after.contains("\u{1B}[?25h")
            })
        }
    }

    @Test func suspendRestoresAndContinueReentersRawMode() async throws {
        try await offPool {
            let pty = try PseudoTerminal()
            let before = pty.slaveAttributes()
            let child = try ChildProcess(tty: pty.slaveName, signal: SIGTSTP)
            defer { child.killIfRunning() }
            #expect(pty.readUntil { $0.contains("RAW-READY") })
            let stopped = try #require(child.wait(untraced: true, seconds: 20), "child did not stop")
            #expect(stopped.stopSignal == SIGTSTP, "output: \(child.output())")
            #expect(sameAttributes(pty.slaveAttributes(), before))
            kill(child.pid, SIGCONT)
            #expect(pty.readUntil { $0.contains("RESUMED") })
            let exited = try #require(child.wait(untraced: false, seconds: 20), "child did not exit")
            #expect(exited.exitCode == 0, "output: \(child.output())")
            #expect(sameAttributes(pty.slaveAttributes(), before))
        }
    }

    @Test func ctrlZInThePickerSuspendsAndResumes() async throws {
        try await offPool {
            let pty = try PseudoTerminal()
            let before = pty.slaveAttributes()
            let child = try ChildProcess(test: "childRunsThePicker", tty: pty.slaveName, signal: 0)
            defer { child.killIfRunning() }
            #expect(pty.readUntil { $0.contains("Esc cancel") })
            pty.send([0x1A])
            let stopped = try #require(child.wait(untraced: true, seconds: 20), "child did not stop")
            #expect(stopped.stopSignal == SIGTSTP)
            #expect(sameAttributes(pty.slaveAttributes(), before))
            kill(child.pid, SIGCONT)
            // Continued: the SIGCONT handler's redraw request draws the picker a second time.
            #expect(pty.readUntil { $0.components(separatedBy: "Esc cancel").count >= 3 })
            pty.send([0x1B, 0x5B, 0x42, 0x0D])
            #expect(pty.readUntil { $0.contains("RESULT chosen(\"mail\")") })
            let exited = try #require(child.wait(untraced: false, seconds: 20), "child did not exit")
            #expect(exited.exitCode == 0, "output: \(child.output())")
            #expect(sameAttributes(pty.slaveAttributes(), before))
        }
    }
}
