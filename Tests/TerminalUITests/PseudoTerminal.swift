// PseudoTerminal: test helper owning an openpty pair, reading the master side with deadlines.

import Foundation
import Glibc
import SystemSupport
import TerminalUI

/// A pseudo-terminal for tests: the code under test uses `slave`, the test plays the user on `master`.
final class PseudoTerminal {
    private(set) var master: Int32
    let slave: Int32
    /// Everything read from the master so far (what the code under test drew).
    private(set) var output: [UInt8] = []

    init(columns: UInt16 = 80, rows: UInt16 = 24) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        var window = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &window) == 0 else {
            throw SystemError("openpty", code: errno)
        }
        self.master = master
        self.slave = slave
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
    }

    deinit {
        if master >= 0 { close(master) }
        close(slave)
    }

    /// Closes the master now (a hang-up for the slave side); the deinit will not close it again.
    func hangUp() {
        close(master)
        master = -1
    }

    var outputText: String { String(decoding: output, as: UTF8.self) }

    /// Types `bytes` as the user.
    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(master, $0.baseAddress! + offset, bytes.count - offset) }
            if n > 0 { offset += n } else if errno != EINTR { return }
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Reads what is available within `milliseconds`; returns false on timeout with nothing read.
    @discardableResult
    func readAvailable(milliseconds: Int32) -> Bool {
        var pfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(master, &buffer, buffer.count)
        guard n > 0 else { return false }
        output += buffer[0..<n]
        return true
    }

    /// Reads until the output so far satisfies `condition` or `seconds` pass; returns whether it did.
    func readUntil(seconds: Double = 30, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(outputText) {
            guard Date() < deadline else { return false }
            readAvailable(milliseconds: 50)
        }
        return true
    }

    /// The slave's device path (for a child process to open).
    var slaveName: String {
        String(cString: ttyname(slave))
    }

    /// The slave's current termios.
    func slaveAttributes() -> termios {
        var attributes = termios()
        _ = tcgetattr(slave, &attributes)
        return attributes
    }
}

/// A value set once by another thread, waited for with a deadline.
final class Outcome<Value: Sendable>: @unchecked Sendable {
    // Invariant: `value` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var value: Value?

    func set(_ newValue: Value) {
        condition.lock()
        value = newValue
        condition.broadcast()
        condition.unlock()
    }

    /// The value, waiting at most `seconds` for it.
    func wait(seconds: Double) -> Value? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while value == nil {
            if !condition.wait(until: deadline) { break }
        }
        return value
    }
}

/// Compares the termios fields that raw mode changes, and the control characters.
func sameAttributes(_ a: termios, _ b: termios) -> Bool {
    var a = a
    var b = b
    let sameControlCharacters = withUnsafeBytes(of: &a.c_cc) { x in
        withUnsafeBytes(of: &b.c_cc) { y in x.elementsEqual(y) }
    }
    return a.c_lflag == b.c_lflag && a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag
        && a.c_cflag == b.c_cflag && sameControlCharacters
}
