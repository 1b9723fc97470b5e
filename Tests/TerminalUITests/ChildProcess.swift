// ChildProcess: test helper that starts this test binary as a child running one Swift Testing test.

import Foundation
import Glibc
import SystemSupport
import Testing

/// How a child ended or stopped, from waitpid's status.
struct ChildStatus {
    var raw: Int32
    /// The signal that killed it, if one did.
    var signal: Int32? { (raw & 0x7F) != 0 && (raw & 0x7F) != 0x7F ? raw & 0x7F : nil }
    /// The exit code, if it exited.
    var exitCode: Int32? { (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : nil }
    /// The signal that stopped it, if it is stopped.
    var stopSignal: Int32? { (raw & 0xFF) == 0x7F ? (raw >> 8) & 0xFF : nil }
}

/// The test binary run again for one child-side test of `SignalRestoreTests`.
///
/// Spawned by `ProcessSpawner` (an empty signal mask and default dispositions: Swift Testing's
/// workers block signals, and a child inherits that), in its own process group of this session
/// so a stop signal really stops it, with standard output and error to a pipe read only after
/// it ends.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private let outputFD: Int32
    // Invariant: `finished` is only touched with `lock` held.
    private let lock = NSLock()
    private var finished = false

    /// Runs `SignalRestoreTests/<test>` with the slave's path and `signal` in the environment.
    init(test: String = "childEntersRawModeAndSignalsItself", tty: String, signal: Int32) throws {
        let output: (read: Int32, write: Int32)
        do {
            output = try SystemCalls.makePipe()
        } catch {
            throw TerminalErrorForTests.system("pipe2: \(error)")
        }
        defer { close(output.write) }
        let executable = try Self.executablePath()
        var environment = ProcessInfo.processInfo.environment
        environment["TERMINALUI_CHILD_TTY"] = tty
        environment["TERMINALUI_CHILD_TEST"] = test
        environment["TERMINALUI_CHILD_SIGNAL"] = String(signal)
        var request = SpawnRequest(
            executable: executable,
            arguments: [executable, "--testing-library", "swift-testing", "--filter", "SignalRestoreTests/\(test)"],
            environment: environment)
        request.standardOutput = .descriptor(output.write)
        request.standardError = .descriptor(output.write)
        request.processGroup = .own
        let pid: pid_t
        do {
            pid = try ProcessSpawner.spawn(request)
        } catch {
            close(output.read)
            throw TerminalErrorForTests.system("\(error)")
        }
        self.pid = pid
        self.outputFD = output.read
    }

    deinit {
        close(outputFD)
    }

    static func executablePath() throws -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { throw TerminalErrorForTests.system("readlink") }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Waits (on a helper thread, so with a deadline) for the child to end, or to stop when
    /// `untraced`; nil when the deadline passes first.
    func wait(untraced: Bool, seconds: Double) -> ChildStatus? {
        let outcome = OutcomeBox()
        let pid = self.pid
        Thread {
            var status: Int32 = 0
            while waitpid(pid, &status, untraced ? WUNTRACED : 0) < 0 && errno == EINTR {}
            outcome.set(status)
        }.start()
        guard let status = outcome.wait(seconds: seconds) else { return nil }
        let result = ChildStatus(raw: status)
        if result.stopSignal == nil {
            lock.lock()
            finished = true
            lock.unlock()
        }
        return result
    }

    /// Everything the child printed; call once it has ended.
    func output() -> String {
        let data = FileHandle(fileDescriptor: outputFD, closeOnDealloc: false).readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self)
    }

    /// Kills and reaps the child unless it already ended (a failed test must not leave it behind).
    func killIfRunning() {
        lock.lock()
        let done = finished
        lock.unlock()
        guard !done else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}

typealias OutcomeBox = Outcome<Int32>

enum TerminalErrorForTests: Error {
    case system(String)
}
