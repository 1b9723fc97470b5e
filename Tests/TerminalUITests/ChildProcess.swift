// ChildProcess: test helper that starts this test binary as a child running one Swift Testing test.

import Foundation
import Glibc
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
/// Spawned with an empty signal mask and default dispositions (Swift Testing's workers block
/// signals, and a child inherits that), in its own process group of this session so a stop
/// signal really stops it, with standard output and error to a pipe read only after it ends.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private let outputFD: Int32
    // Invariant: `finished` is only touched with `lock` held.
    private let lock = NSLock()
    private var finished = false

    /// Runs `SignalRestoreTests/<test>` with the slave's path and `signal` in the environment.
    init(test: String = "childEntersRawModeAndSignalsItself", tty: String, signal: Int32) throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw TerminalErrorForTests.system("pipe") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let executable = try Self.executablePath()
        let arguments = [
            executable, "--testing-library", "swift-testing",
            "--filter", "SignalRestoreTests/\(test)",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["TERMINALUI_CHILD_TTY"] = tty
        environment["TERMINALUI_CHILD_TEST"] = test
        environment["TERMINALUI_CHILD_SIGNAL"] = String(signal)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(fds[1])
        guard result == 0 else {
            close(fds[0])
            throw TerminalErrorForTests.system("posix_spawn: \(result)")
        }
        self.pid = pid
        self.outputFD = fds[0]
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
