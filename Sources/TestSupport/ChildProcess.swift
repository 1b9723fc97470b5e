// A child process for tests: posix_spawn with a clean signal state, output captured to pipes.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A spawned executable whose stdout and stderr are captured (never inherited: a child holding
/// `swift test`'s stderr would keep it waiting).
///
/// Spawned with `posix_spawn`, an empty signal mask and default handlers
/// (`POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF`): Swift Testing's worker threads block
/// SIGTERM and SIGCHLD, and a child would otherwise inherit that and ignore `terminate()`.
/// All file descriptors we create are close-on-exec, so other children never inherit them.
///
/// Released while still running, the child is killed (SIGKILL). Thread-safe.
public final class ChildProcess: @unchecked Sendable {
    public enum Input: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe; write with `write(_:)`, end with `closeStandardInput()`.
        case pipe
    }

    public enum Stream: Sendable { case standardOutput, standardError }

    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)
        public var description: String {
            switch self {
            case .exited(let code): "exited with \(code)"
            case .signaled(let signal): "killed by signal \(signal)"
            }
        }
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public let executable: String
        public let errno: Int32
        public var description: String { "cannot spawn \(executable): \(String(cString: strerror(errno)))" }
    }

    public let pid: pid_t
    public let executable: String
    private let state: ChildState
    private let inputLock = NSLock()
    private var inputFD: Int32

    /// Spawns `executable` (a path, or a name looked up in `PATH`) with `arguments`.
    ///
    /// - `environment`: the whole environment (nil: this process's).
    /// - `fileDescriptors`: extra descriptors to pass, child fd → our fd (e.g. `[3: pipeEnd]`).
    public init(
        executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        standardInput: Input = .null, fileDescriptors: [Int32: Int32] = [:], workingDirectory: String? = nil
    ) throws {
        let output = try Self.makePipe()
        let errors = try Self.makePipe()
        var input: (read: Int32, write: Int32)? = nil
        if standardInput == .pipe { input = try Self.makePipe() }
        defer {
            close(output.write)
            close(errors.write)
            if let input { close(input.read) }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errors.write, 2)
        for (target, source) in fileDescriptors.sorted(by: { $0.key < $1.key }) {
            posix_spawn_file_actions_adddup2(&actions, source, target)
        }
        if let workingDirectory { _ = cAddChdir(&actions, workingDirectory) }
        // The child inherits nothing else: a descriptor another test has open for writing
        // (a script being written) would otherwise make exec of that script fail with ETXTBSY.
        if let cAddCloseFrom { _ = cAddCloseFrom(&actions, (fileDescriptors.keys.max() ?? 2) + 1) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let environment = environment ?? ProcessInfo.processInfo.environment
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let status =
            executable.contains("/")
            ? posix_spawn(&child, executable, &actions, &attributes, argv, envp)
            : posix_spawnp(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            close(output.read)
            close(errors.read)
            if let input { close(input.write) }
            throw SpawnError(executable: executable, errno: status)
        }
        pid = child
        self.executable = executable
        inputFD = input?.write ?? -1
        state = ChildState()
        state.start(pid: child, output: output.read, errors: errors.read)
    }

    deinit {
        if state.termination == nil { Glibc.kill(pid, SIGKILL) }
        if inputFD >= 0 { close(inputFD) }
    }

    /// A close-on-exec pipe.
    static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard cPipe2(&fds, O_CLOEXEC) == 0 else { throw SpawnError(executable: "pipe", errno: errno) }
        return (fds[0], fds[1])
    }

    // MARK: Input

    /// Writes `text` to the child's stdin (requires `.pipe`).
    public func write(_ text: String) throws {
        inputLock.lock()
        defer { inputLock.unlock() }
        guard inputFD >= 0 else { throw SpawnError(executable: executable, errno: EBADF) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(inputFD, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw SpawnError(executable: executable, errno: errno)
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Closes the child's stdin (it reads EOF).
    public func closeStandardInput() {
        inputLock.lock()
        defer { inputLock.unlock() }
        if inputFD >= 0 { close(inputFD) }
        inputFD = -1
    }

    // MARK: Output

    /// Everything the child wrote to stdout so far (lossy UTF-8).
    public var standardOutput: String { state.text(.standardOutput) }
    /// Everything the child wrote to stderr so far (lossy UTF-8).
    public var standardError: String { state.text(.standardError) }
    /// Complete lines of stdout so far (and the last partial one once the stream ended).
    public var standardOutputLines: [String] { state.lines(.standardOutput) }
    public var standardErrorLines: [String] { state.lines(.standardError) }

    /// Waits until a line of `stream` satisfies `predicate` and returns it; throws `TimeoutError`
    /// (with the output so far) at the deadline or when the stream ends without one. Blocking.
    public func waitForLine(
        in stream: Stream = .standardOutput, deadline: Deadline = .seconds(10), where predicate: (String) -> Bool
    ) throws -> String {
        try state.waitForLine(stream, deadline: deadline, predicate: predicate)
    }

    /// Async variant of `waitForLine` (polls; does not block a thread).
    public func nextLine(
        in stream: Stream = .standardOutput, deadline: Deadline = .seconds(10), where predicate: (String) -> Bool
    ) async throws -> String {
        var found: String?
        try await waitUntil("a matching line from \(executable)", deadline: deadline) {
            found = self.state.lines(stream).first(where: predicate)
            return found != nil || self.state.isClosed(stream)
        }
        guard let found else {
            throw TimeoutError("a matching line from \(executable); output: \(standardOutput) \(standardError)")
        }
        return found
    }

    // MARK: Exit

    /// The exit status, nil while running.
    public var termination: Termination? { state.termination }

    /// Waits for the child to exit (and for its output to end, until the same deadline);
    /// throws `TimeoutError` if it is still running at the deadline. Blocking.
    @discardableResult
    public func waitForExit(deadline: Deadline = .seconds(10)) throws -> Termination {
        guard let termination = state.waitForExit(deadline: deadline) else {
            throw TimeoutError("exit of \(executable) (pid \(pid))")
        }
        return termination
    }

    /// Async variant of `waitForExit` (polls; does not block a thread).
    @discardableResult
    public func exit(deadline: Deadline = .seconds(10)) async throws -> Termination {
        try await waitUntil("exit of \(executable) (pid \(pid))", deadline: deadline) { self.termination != nil }
        try? await waitUntil("end of output", deadline: deadline) {
            self.state.isClosed(.standardOutput) && self.state.isClosed(.standardError)
        }
        return termination!
    }

    /// Sends `signal` unless the child has already been reaped (its pid may be reused).
    public func send(_ signal: Int32) {
        if state.termination == nil { Glibc.kill(pid, signal) }
    }

    /// SIGTERM.
    public func terminate() { send(SIGTERM) }
    /// SIGKILL.
    public func kill() { send(SIGKILL) }

    /// Runs to completion and returns the status and both outputs; throws `TimeoutError` (after
    /// killing the child) when it does not finish by the deadline.
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil,
        deadline: Deadline = .seconds(30)
    ) async throws -> (termination: Termination, standardOutput: String, standardError: String) {
        let child = try ChildProcess(executable: executable, arguments: arguments, environment: environment)
        do {
            let termination = try await child.exit(deadline: deadline)
            return (termination, child.standardOutput, child.standardError)
        } catch {
            child.kill()
            throw error
        }
    }
}

/// `pipe2` and `posix_spawn_file_actions_addchdir_np` are GNU extensions the Glibc module does
/// not expose; look them up in the C library itself.
private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
private let cPipe2: Pipe2 = unsafeBitCast(dlsym(nil, "pipe2"), to: Pipe2.self)
private let cAddChdir: AddChdir = unsafeBitCast(dlsym(nil, "posix_spawn_file_actions_addchdir_np"), to: AddChdir.self)
private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
/// glibc ≥ 2.34; nil before, when children may inherit stray descriptors.
private let cAddCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
    .map { unsafeBitCast($0, to: AddCloseFrom.self) }

/// The shared state of a child: output buffers and exit status, filled by reader and reaper
/// threads. All fields guarded by `condition`.
final class ChildState: @unchecked Sendable {
    private let condition = NSCondition()
    private var output: [UInt8] = []
    private var errors: [UInt8] = []
    private var outputOpen = true
    private var errorsOpen = true
    private var status: ChildProcess.Termination?

    func start(pid: pid_t, output: Int32, errors: Int32) {
        Thread { self.pump(output, .standardOutput) }.start()
        Thread { self.pump(errors, .standardError) }.start()
        Thread { self.reap(pid) }.start()
    }

    private func pump(_ fd: Int32, _ stream: ChildProcess.Stream) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            condition.lock()
            if stream == .standardOutput {
                output += buffer[..<count]
            } else {
                errors += buffer[..<count]
            }
            condition.broadcast()
            condition.unlock()
        }
        close(fd)
        condition.lock()
        if stream == .standardOutput { outputOpen = false } else { errorsOpen = false }
        condition.broadcast()
        condition.unlock()
    }

    private func reap(_ pid: pid_t) {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 {
            if errno != EINTR {
                raw = 0x7f  // not ours to reap (someone else waited): report as signaled
                break
            }
        }
        let result: ChildProcess.Termination =
            raw & 0x7f == 0 ? .exited((raw >> 8) & 0xff) : .signaled(raw & 0x7f)
        condition.lock()
        status = result
        condition.broadcast()
        condition.unlock()
    }

    var termination: ChildProcess.Termination? {
        condition.lock()
        defer { condition.unlock() }
        return status
    }

    func isClosed(_ stream: ChildProcess.Stream) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return stream == .standardOutput ? !outputOpen : !errorsOpen
    }

    func text(_ stream: ChildProcess.Stream) -> String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: stream == .standardOutput ? output : errors, as: UTF8.self)
    }

    func lines(_ stream: ChildProcess.Stream) -> [String] {
        condition.lock()
        defer { condition.unlock() }
        return linesLocked(stream)
    }

    private func linesLocked(_ stream: ChildProcess.Stream) -> [String] {
        let bytes = stream == .standardOutput ? output : errors
        let open = stream == .standardOutput ? outputOpen : errorsOpen
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        // The last piece is a partial line (or empty after a final newline) while the stream is open.
        if open || lines.last == "" { lines.removeLast() }
        return lines
    }

    func waitForLine(_ stream: ChildProcess.Stream, deadline: Deadline, predicate: (String) -> Bool) throws -> String {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = linesLocked(stream).first(where: predicate) { return line }
            let open = stream == .standardOutput ? outputOpen : errorsOpen
            if !open || deadline.hasPassed {
                let seen = String(decoding: stream == .standardOutput ? output : errors, as: UTF8.self)
                throw TimeoutError("a matching line (\(open ? "deadline passed" : "stream ended"); output: \(seen))")
            }
            _ = condition.wait(until: deadline.date)
        }
    }

    func waitForExit(deadline: Deadline) -> ChildProcess.Termination? {
        condition.lock()
        defer { condition.unlock() }
        while status == nil {
            if deadline.hasPassed { return nil }
            _ = condition.wait(until: deadline.date)
        }
        // Let the readers drain what the child wrote before exiting.
        while (outputOpen || errorsOpen) && !deadline.hasPassed {
            _ = condition.wait(until: deadline.date)
        }
        return status
    }
}
