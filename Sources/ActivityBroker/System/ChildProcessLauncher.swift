// Spawns child processes with posix_spawn: clean signal state, own process group, no stray fds.
import Foundation
import Glibc

/// Why a program could not be started; thrown by `ChildProcessLauncher.spawn` before any
/// process exists. Every case names the program as it was asked for.
public enum SpawnError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not on PATH, or the given path does not exist (ENOENT).
    case notFound(program: String)
    /// Exists but may not be executed (EACCES).
    case permissionDenied(program: String)
    /// Any other failure: the system call and `errno`.
    case failed(program: String, operation: String, code: Int32)

    /// The program the error is about.
    public var program: String {
        switch self {
        case .notFound(let program), .permissionDenied(let program), .failed(let program, _, _):
            return program
        }
    }

    public var description: String {
        switch self {
        case .notFound(let program): return "\(program): program not found"
        case .permissionDenied(let program): return "\(program): permission denied"
        case .failed(let program, let operation, let code):
            return "\(program): \(operation) failed: \(String(cString: strerror(code)))"
        }
    }
}

/// How a child process ended.
public enum ProcessExit: Hashable, Sendable, CustomStringConvertible {
    /// Exited normally with this status (0–255).
    case exited(Int32)
    /// Killed by this signal.
    case signaled(Int32)
    /// Reaped by someone else in this process (a stray `waitpid(-1)`): the status is lost.
    case unknown

    /// Whether the child exited with status 0.
    public var succeeded: Bool { self == .exited(0) }

    public var description: String {
        switch self {
        case .exited(let code): return "exited with status \(code)"
        case .signaled(let signal): return "killed by signal \(signal)"
        case .unknown: return "ended (status unknown)"
        }
    }
}

/// The end of a child process: its exit and, when captured, its output.
public struct ProcessTermination: Sendable {
    /// How it ended.
    public var exit: ProcessExit
    /// Standard output, when `SpawnOptions.captureStandardOutput` was set (truncated at
    /// `SpawnOptions.captureLimit`).
    public var standardOutput: Data?
    /// Standard error, when `SpawnOptions.captureStandardError` was set.
    public var standardError: Data?
}

/// What a spawned child gets besides its arguments.
public struct SpawnOptions: Sendable {
    /// Written to the child's standard input through a pipe, asynchronously; nil gives it
    /// `/dev/null`. A child that exits without reading it is not an error.
    public var standardInput: String?
    /// Variables set on top of the launcher's environment (e.g. `XDG_ACTIVATION_TOKEN`).
    public var environment: [String: String]
    /// Capture standard output (tests, diagnostics). Off by default: a shared URL a child
    /// prints must never reach the broker's log, so output goes to `/dev/null`.
    public var captureStandardOutput: Bool
    /// Capture standard error; `/dev/null` otherwise.
    public var captureStandardError: Bool
    /// Most bytes kept per captured stream; the rest is read and dropped.
    public var captureLimit: Int
    /// Start a new session (`setsid`) instead of only a new process group. Either way the
    /// child leads its own group, so `terminate` reaches its descendants.
    public var newSession: Bool

    public init(
        standardInput: String? = nil, environment: [String: String] = [:],
        captureStandardOutput: Bool = false, captureStandardError: Bool = false,
        captureLimit: Int = 1 << 20, newSession: Bool = false
    ) {
        self.standardInput = standardInput
        self.environment = environment
        self.captureStandardOutput = captureStandardOutput
        self.captureStandardError = captureStandardError
        self.captureLimit = captureLimit
        self.newSession = newSession
    }
}

/// Starts programs without a shell and watches them on a caller's queue.
///
/// Each child gets an empty signal mask and default signal handlers (the broker, and the
/// test runner's threads, may block or ignore signals), its own process group, stdin from
/// `/dev/null` or a pipe, stdout/stderr to `/dev/null` unless captured, and no descriptor
/// of ours above 2. The first launcher created sets SIGPIPE to ignored for the whole process
/// (so a child that closes its stdin early cannot kill the broker) and opens `/dev/null`
/// on any of descriptors 0–2 that is closed.
public struct ChildProcessLauncher: Sendable {
    /// How exits are observed; `.signalReaper` is internal, for tests of the fallback.
    enum ExitWatch: Sendable { case automatic, signalReaper }

    /// The queue on which every completion runs.
    public let queue: DispatchQueue
    /// Resolves `argv[0]` on the PATH of the child's environment.
    public let locator: ExecutableLocator
    /// The environment every child starts from (default: the broker's own).
    public let environment: [String: String]
    var exitWatch: ExitWatch = .automatic

    public init(
        queue: DispatchQueue, locator: ExecutableLocator = ExecutableLocator(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        Self.processSetup
        self.queue = queue
        self.locator = locator
        self.environment = environment
    }

    private static let processSetup: Void = {
        _ = signal(SIGPIPE, SIG_IGN)
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 {
            // open returns the lowest free descriptor, which is this one.
            _ = open("/dev/null", O_RDWR)
        }
    }()

    /// Starts `arguments` (argv; `arguments[0]` is looked up on PATH unless it contains a slash).
    ///
    /// `onExit` runs exactly once on `queue` after the child has exited and its captured
    /// streams reached end of file. May be called from any thread.
    /// - Throws: `SpawnError` naming the program when it is missing, not executable, or the
    ///   spawn fails; no process exists then and `onExit` never runs.
    public func spawn(
        _ arguments: [String], options: SpawnOptions = SpawnOptions(),
        onExit: @escaping @Sendable (ProcessTermination) -> Void
    ) throws(SpawnError) -> SpawnedProcess {
        guard let program = arguments.first, !program.isEmpty else {
            throw .failed(program: "", operation: "spawn (empty argv)", code: EINVAL)
        }
        var childEnvironment = environment
        childEnvironment.merge(options.environment) { _, new in new }
        let executable = try resolve(program, environment: childEnvironment)

        var pipes = ChildPipes()
        do {
            if options.standardInput != nil { pipes.input = try SystemCalls.makePipe() }
            if options.captureStandardOutput { pipes.output = try SystemCalls.makePipe() }
            if options.captureStandardError { pipes.error = try SystemCalls.makePipe() }
        } catch {
            pipes.closeAll()
            throw .failed(program: program, operation: "pipe2", code: error.code)
        }

        let pid: pid_t
        do {
            pid = try Self.posixSpawn(
                executable, arguments: arguments, environment: childEnvironment,
                pipes: pipes, newSession: options.newSession, program: program)
        } catch {
            pipes.closeAll()
            throw error
        }
        pipes.closeChildEnds()

        let process = SpawnedProcess(
            pid: pid, queue: queue,
            input: pipes.input.map { ($0.write, options.standardInput ?? "") },
            output: pipes.output?.read, error: pipes.error?.read,
            captureLimit: options.captureLimit, onExit: onExit)
        process.start(useSignalReaper: exitWatch == .signalReaper)
        return process
    }

    private func resolve(_ program: String, environment: [String: String]) throws(SpawnError) -> String {
        if let found = locator.find(program, environment: environment) { return found }
        let path = environment["PATH"] ?? ExecutableLocator.defaultPath
        // A cached miss may be stale (installed since, change not yet reported): look again.
        if let found = ExecutableLocator.search(program, path: path) { return found }
        guard program.contains("/") else { throw .notFound(program: program) }
        // Tell "missing" from "not executable" for a path the caller gave.
        var info = stat()
        if stat(program, &info) != 0 { throw .notFound(program: program) }
        throw .permissionDenied(program: program)
    }

    private static func posixSpawn(
        _ executable: String, arguments: [String], environment: [String: String],
        pipes: ChildPipes, newSession: Bool, program: String
    ) throws(SpawnError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        // dup2 clears FD_CLOEXEC on the target, so only 0–2 survive the exec.
        func route(_ pipeEnd: Int32?, to target: Int32, nullMode: Int32) {
            if let pipeEnd {
                posix_spawn_file_actions_adddup2(&actions, pipeEnd, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", nullMode, 0)
            }
        }
        route(pipes.input?.read, to: 0, nullMode: O_RDONLY)
        route(pipes.output?.write, to: 1, nullMode: O_WRONLY)
        route(pipes.error?.write, to: 2, nullMode: O_WRONLY)
        // Descriptors someone else opened without O_CLOEXEC must not leak into activities;
        // without closefrom_np we rely on our own descriptors being O_CLOEXEC.
        _ = SystemCalls.addCloseFrom(&actions, 3)

        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if newSession {
            flags |= SystemCalls.spawnSetSID
        } else {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = arguments.map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
                posix_spawn(
                    &pid, executable, &actions, &attributes,
                    argvBuffer.baseAddress!, envpBuffer.baseAddress!)
            }
        }
        switch result {
        case 0: return pid
        case ENOENT, ENOTDIR: throw .notFound(program: program)
        case EACCES, EPERM: throw .permissionDenied(program: program)
        default: throw .failed(program: program, operation: "posix_spawn", code: result)
        }
    }
}

/// The pipes of one spawn; the child ends are closed in the parent once the child has them.
private struct ChildPipes {
    var input: (read: Int32, write: Int32)?
    var output: (read: Int32, write: Int32)?
    var error: (read: Int32, write: Int32)?

    func closeChildEnds() {
        if let input { SystemCalls.closeQuietly(input.read) }
        if let output { SystemCalls.closeQuietly(output.write) }
        if let error { SystemCalls.closeQuietly(error.write) }
    }

    func closeAll() {
        for pair in [input, output, error].compactMap({ $0 }) {
            SystemCalls.closeQuietly(pair.read)
            SystemCalls.closeQuietly(pair.write)
        }
    }
}
