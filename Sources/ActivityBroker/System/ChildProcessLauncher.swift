// Spawns child processes with posix_spawn: clean signal state, own process group, no stray fds.
import Foundation
import Glibc

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
        var result: Int32 = 0
        for attempt in 1...5 {
            result = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
                (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
                    posix_spawn(
                        &pid, executable, &actions, &attributes,
                        argvBuffer.baseAddress!, envpBuffer.baseAddress!)
                }
            }
            // ETXTBSY is transient: a program just written is still open for writing in a
            // child some other thread forked before its descriptors were closed. Retry briefly.
            guard result == ETXTBSY, attempt < 5 else { break }
            usleep(UInt32(attempt) * 2_000)
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
