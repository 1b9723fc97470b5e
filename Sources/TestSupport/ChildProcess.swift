// A child process for tests: spawned by SystemSupport's ProcessSpawner, output captured to pipes.
import Foundation
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A spawned executable whose stdout and stderr are captured (never inherited: a child holding
/// `swift test`'s stderr would keep it waiting).
///
/// Spawned by `ProcessSpawner`: an empty signal mask and default handlers (Swift Testing's
/// worker threads block SIGTERM and SIGCHLD, and a child would otherwise inherit that and
/// ignore `terminate()`), and no descriptor of ours but 0–2 and `fileDescriptors`. The child
/// stays in our process group.
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

    /// How the child ended (`.unknown` when something else reaped it).
    public typealias Termination = ProcessExit

    /// Why the child could not be started.
    public typealias SpawnError = SystemSupport.SpawnError

    public let pid: pid_t
    public let executable: String
    private let state: ChildState
    private let inputLock = NSLock()
    private var inputFD: Int32

    /// Spawns `executable` (a path, or a name looked up in `PATH`) with `arguments`.
    ///
    /// - `environment`: the whole environment (nil: this process's), plus this process's
    ///   sanitizer settings (`SanitizerEnvironment`).
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
        let environment = SanitizerEnvironment.adding(to: environment ?? ProcessInfo.processInfo.environment)
        // A bare name is looked up on our PATH, as execvp would.
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ExecutableLocator.defaultPath
        var request = SpawnRequest(
            executable: ExecutableLocator.search(executable, path: path) ?? executable,
            arguments: [executable] + arguments, environment: environment)
        request.standardInput = input.map { .descriptor($0.read) } ?? .null
        request.standardOutput = .descriptor(output.write)
        request.standardError = .descriptor(errors.write)
        request.extraDescriptors = fileDescriptors
        request.workingDirectory = workingDirectory
        let child: pid_t
        do {
            child = try ProcessSpawner.spawn(request, program: executable)
        } catch {
            close(output.read)
            close(errors.read)
            if let input { close(input.write) }
            throw error
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
    public static func makePipe() throws(SystemError) -> (read: Int32, write: Int32) {
        try SystemCalls.makePipe()
    }

    // MARK: Input

    /// Writes `text` to the child's stdin (requires `.pipe`).
    public func write(_ text: String) throws {
        inputLock.lock()
        defer { inputLock.unlock() }
        guard inputFD >= 0 else { throw SystemError("write", path: "stdin of \(executable)", code: EBADF) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(inputFD, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemError("write", path: "stdin of \(executable)")
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
        in stream: Stream = .standardOutput, deadline: Deadline = .standard, where predicate: (String) -> Bool
    ) throws -> String {
        try state.waitForLine(stream, deadline: deadline, predicate: predicate)
    }

    /// Async variant of `waitForLine` (polls; does not block a thread).
    public func nextLine(
        in stream: Stream = .standardOutput, deadline: Deadline = .standard, where predicate: (String) -> Bool
    ) async throws -> String {
        var found: String?
        try await waitUntil("a matching line from \(executable)", deadline: deadline) {
            found = self.state.firstLine(stream, where: predicate)
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
    public func waitForExit(deadline: Deadline = .standard) throws -> Termination {
        guard let termination = state.waitForExit(deadline: deadline) else {
            throw TimeoutError("exit of \(executable) (pid \(pid))")
        }
        return termination
    }

    /// Async variant of `waitForExit` (polls; does not block a thread).
    @discardableResult
    public func exit(deadline: Deadline = .standard) async throws -> Termination {
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

/// One captured stream: its bytes, and its complete lines split once as they arrive (a test
/// polling for a line every few milliseconds would otherwise split the whole output each time,
/// which under load falls behind a verbose child).
struct CapturedStream {
    private(set) var bytes: [UInt8] = []
    private(set) var completeLines: [String] = []
    private(set) var isOpen = true
    /// Where the line not yet ended starts in `bytes`.
    private var partialStart = 0

    mutating func append(_ chunk: ArraySlice<UInt8>) {
        let scanFrom = bytes.count
        bytes += chunk
        var index = scanFrom
        while let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
            completeLines.append(String(decoding: bytes[partialStart..<newline], as: UTF8.self))
            partialStart = newline + 1
            index = newline + 1
        }
    }

    mutating func close() { isOpen = false }

    /// The complete lines, and the last partial one once the stream ended.
    var lines: [String] {
        guard !isOpen, partialStart < bytes.count else { return completeLines }
        return completeLines + [String(decoding: bytes[partialStart...], as: UTF8.self)]
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// The shared state of a child: output buffers and exit status, filled by reader and reaper
/// threads. All fields guarded by `condition`.
final class ChildState: @unchecked Sendable {
    private let condition = NSCondition()
    private var streams = [CapturedStream(), CapturedStream()]
    private var status: ChildProcess.Termination?

    private static func index(_ stream: ChildProcess.Stream) -> Int { stream == .standardOutput ? 0 : 1 }

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
            streams[Self.index(stream)].append(buffer[..<count])
            condition.broadcast()
            condition.unlock()
        }
        close(fd)
        condition.lock()
        streams[Self.index(stream)].close()
        condition.broadcast()
        condition.unlock()
    }

    private func reap(_ pid: pid_t) {
        let result = ProcessExit.wait(for: pid)
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
        return !streams[Self.index(stream)].isOpen
    }

    func text(_ stream: ChildProcess.Stream) -> String {
        condition.lock()
        defer { condition.unlock() }
        return streams[Self.index(stream)].text
    }

    func lines(_ stream: ChildProcess.Stream) -> [String] {
        condition.lock()
        defer { condition.unlock() }
        return streams[Self.index(stream)].lines
    }

    /// The first line satisfying `predicate`, without copying the others.
    func firstLine(_ stream: ChildProcess.Stream, where predicate: (String) -> Bool) -> String? {
        condition.lock()
        defer { condition.unlock() }
        let captured = streams[Self.index(stream)]
        return captured.completeLines.first(where: predicate) ?? captured.lines.last.flatMap {
            !captured.isOpen && predicate($0) ? $0 : nil
        }
    }

    func waitForLine(_ stream: ChildProcess.Stream, deadline: Deadline, predicate: (String) -> Bool) throws -> String {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let captured = streams[Self.index(stream)]
            if let line = captured.lines.first(where: predicate) { return line }
            if !captured.isOpen || deadline.hasPassed {
                let open = captured.isOpen
                throw TimeoutError(
                    "a matching line (\(open ? "deadline passed" : "stream ended"); output: \(captured.text))")
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
        while streams.contains(where: \.isOpen) && !deadline.hasPassed {
            _ = condition.wait(until: deadline.date)
        }
        return status
    }
}
