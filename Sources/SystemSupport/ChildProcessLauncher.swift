// Starts child processes watched on a queue: own process group, stdin fed, output captured, exit reported.
import Dispatch
import Glibc

/// Starts programs without a shell (through `ProcessSpawner`) and watches them on a caller's queue.
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
        environment: [String: String] = ProcessEnvironment.current
    ) {
        Self.processSetup
        // `SpawnedProcess.terminate` signals at once when called on this queue.
        queue.setSpecific(key: SpawnedProcess.queueKey, value: ObjectIdentifier(queue))
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
    /// streams reached end of file. May be called from any thread. Until it exits the child
    /// is owed an end by `SpawnedProcess.endAll`.
    /// - Throws: `SpawnError` naming the program when it is missing, not executable, or the
    ///   spawn fails; no process exists then and `onExit` never runs.
    public func spawn(
        _ arguments: [String], options: SpawnOptions = SpawnOptions(),
        onExit: @escaping @Sendable (ProcessTermination) -> Void
    ) throws(SpawnError) -> SpawnedProcess {
        try spawn(arguments, options: options, owned: true, onExit: onExit)
    }

    /// `spawn`; `owned` false leaves the child out of `SpawnedProcess.endAll` (detached).
    private func spawn(
        _ arguments: [String], options: SpawnOptions, owned: Bool,
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

        var request = SpawnRequest(executable: executable, arguments: arguments, environment: childEnvironment)
        request.standardInput = pipes.input.map { .descriptor($0.read) } ?? .null
        request.standardOutput = pipes.output.map { .descriptor($0.write) } ?? .null
        request.standardError = pipes.error.map { .descriptor($0.write) } ?? .null
        request.processGroup = options.newSession ? .newSession : .own
        request.workingDirectory = options.workingDirectory
        let pid: pid_t
        do {
            pid = try ProcessSpawner.spawn(request, program: program)
        } catch {
            pipes.closeAll()
            throw error
        }
        pipes.closeChildEnds()

        let process = SpawnedProcess(
            pid: pid, queue: queue,
            input: pipes.input.map { ($0.write, options.standardInput ?? "") },
            output: pipes.output?.read, error: pipes.error?.read,
            capture: SpawnedProcess.Capture(
                limit: options.captureLimit, window: options.captureWindow, reportAtExit: options.reportAtExit),
            target: options.terminationTarget, owned: owned, onExit: onExit)
        process.start(useSignalReaper: exitWatch == .signalReaper)
        return process
    }

    /// Starts `arguments` and leaves it to itself, returning its pid: how a desktop launches
    /// an application, which is done once the program started (GIO's `g_app_info_launch`).
    ///
    /// The child leads a new session (`setsid`), so neither a terminal's signals nor a signal
    /// to a group of ours reach it, and its standard streams are `/dev/null` unless
    /// `options.standardInput` is given. Nobody can terminate it through us: no
    /// `SpawnedProcess` is handed out. It is still reaped when it exits, whenever that is,
    /// by a watch that holds nothing of the caller's.
    /// - Throws: `SpawnError` as `spawn` does; no process exists then.
    public func spawnDetached(
        _ arguments: [String], options: SpawnOptions = SpawnOptions()
    ) throws(SpawnError) -> pid_t {
        var options = options
        options.newSession = true
        options.captureStandardOutput = false
        options.captureStandardError = false
        return try spawn(arguments, options: options, owned: false) { _ in }.pid
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
