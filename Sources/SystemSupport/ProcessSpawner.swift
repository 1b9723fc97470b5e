// The one place a child process is created: posix_spawn with a clean signal state and no stray descriptors.
import Glibc

/// What one of a child's standard descriptors (0, 1, 2) is connected to.
public enum ChildStream: Sendable, Equatable {
    /// `/dev/null`: nothing of ours (a terminal, a test runner's pipe) is held by the child.
    case null
    /// The same file as ours (a command-line tool whose helper reports on our stderr).
    case inherit
    /// A descriptor of ours (a pipe end), duplicated onto the child's.
    case descriptor(Int32)
}

/// Which process group a child runs in.
public enum ChildProcessGroup: Sendable, Equatable {
    /// Ours: a terminal's Ctrl-C reaches it with us.
    case inherit
    /// Its own group, led by the child, so one signal to the group reaches its descendants.
    case own
    /// A new session (`setsid`), which is also a new group.
    case newSession
}

/// Everything about one spawn besides the program: argv, environment, descriptors, group.
public struct SpawnRequest: Sendable {
    /// The program to execute: a path (absolute, or relative to `workingDirectory`); no PATH search.
    public var executable: String
    /// The whole argv, `arguments[0]` included (usually the program as the caller named it).
    public var arguments: [String]
    /// The child's whole environment.
    public var environment: [String: String]
    public var standardInput: ChildStream = .null
    public var standardOutput: ChildStream = .null
    public var standardError: ChildStream = .null
    /// Further descriptors to pass, child descriptor → ours (e.g. `[3: pipeEnd]`).
    public var extraDescriptors: [Int32: Int32] = [:]
    /// The child's working directory; ours when nil.
    public var workingDirectory: String?
    public var processGroup: ChildProcessGroup = .inherit

    public init(executable: String, arguments: [String], environment: [String: String]) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }
}

/// Creates child processes, the careful way every spawner of the package shares.
///
/// The child gets an empty signal mask and every signal's default action
/// (`POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF`): a daemon, a CLI waiting on a job and
/// Swift Testing's worker threads all block or ignore signals, and a child inheriting that
/// would ignore `terminate()`. Only descriptors 0–2 and `extraDescriptors` survive the exec:
/// every other one is closed (`closefrom`, glibc ≥ 2.34; before that our own descriptors are
/// all close-on-exec), because a descriptor another thread has open for writing on a script
/// would make exec'ing that script fail with ETXTBSY, and a pipe leaked into a long-lived
/// child keeps its reader waiting for an end of file.
public enum ProcessSpawner {
    /// Starts `request` and returns the child's pid; the caller reaps it.
    ///
    /// `program` names the program in errors (as the caller was asked for it).
    /// - Throws: `SpawnError` (`notFound`, `permissionDenied`, or `failed` with the errno of
    ///   `posix_spawn`; `failed` with operation "chdir to DIR" when `workingDirectory` is
    ///   missing, not a directory or not searchable); no process exists then.
    public static func spawn(_ request: SpawnRequest, program: String? = nil) throws(SpawnError) -> pid_t {
        let program = program ?? request.executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        // dup2 clears FD_CLOEXEC on the target, so these survive the exec.
        func route(_ stream: ChildStream, to target: Int32, nullMode: Int32) {
            switch stream {
            case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", nullMode, 0)
            case .inherit: break
            case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, target)
            }
        }
        route(request.standardInput, to: 0, nullMode: O_RDONLY)
        route(request.standardOutput, to: 1, nullMode: O_WRONLY)
        route(request.standardError, to: 2, nullMode: O_WRONLY)
        for (target, source) in request.extraDescriptors.sorted(by: { $0.key < $1.key }) {
            posix_spawn_file_actions_adddup2(&actions, source, target)
        }
        if let directory = request.workingDirectory {
            // Without addchdir (glibc < 2.29) the child would run in our directory instead.
            guard SystemCalls.addChdir(&actions, directory) else {
                throw .failed(program: program, operation: "chdir to \(directory)", code: ENOSYS)
            }
        }
        _ = SystemCalls.addCloseFrom(&actions, max(2, request.extraDescriptors.keys.max() ?? 2) + 1)

        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        switch request.processGroup {
        case .inherit: break
        case .own:
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        case .newSession: flags |= SystemCalls.spawnSetSID
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = request.arguments.map { strdup($0) }
        let envp = request.environment.map { strdup("\($0.key)=\($0.value)") }
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
                        &pid, request.executable, &actions, &attributes,
                        argvBuffer.baseAddress!, envpBuffer.baseAddress!)
                }
            }
            // ETXTBSY is transient: a program just written is still open for writing in a
            // child some other thread forked before its descriptors were closed. Retry briefly.
            guard result == ETXTBSY, attempt < 5 else { break }
            usleep(UInt32(attempt) * 2_000)
        }
        // The chdir runs in the child before the exec, and its errno is posix_spawn's: a
        // missing `Path=` directory would read as the program missing.
        if result != 0, let directory = request.workingDirectory,
            let code = Self.directoryProblem(directory)
        {
            throw .failed(program: program, operation: "chdir to \(directory)", code: code)
        }
        switch result {
        case 0: return pid
        case ENOENT, ENOTDIR: throw .notFound(program: program)
        case EACCES, EPERM: throw .permissionDenied(program: program)
        default: throw .failed(program: program, operation: "posix_spawn", code: result)
        }
    }

    /// Why `directory` cannot be a working directory (ENOENT, ENOTDIR, EACCES), nil when it can.
    private static func directoryProblem(_ directory: String) -> Int32? {
        var info = stat()
        guard stat(directory, &info) == 0 else { return errno }
        guard info.st_mode & S_IFMT == S_IFDIR else { return ENOTDIR }
        return access(directory, X_OK) == 0 ? nil : errno
    }

    /// Runs `arguments` (`arguments[0]` looked up on the PATH of `environment`) to its end,
    /// blocking the calling thread, and returns how it ended. For programs that run one
    /// helper at a time (`activity-qr`, the URL opener on a thread of its own).
    /// - Throws: `SpawnError` when it cannot be started.
    public static func run(
        _ arguments: [String], environment: [String: String], standardStreams: ChildStream = .inherit
    ) throws(SpawnError) -> ProcessExit {
        guard let program = arguments.first, !program.isEmpty else {
            throw .failed(program: "", operation: "spawn (empty argv)", code: EINVAL)
        }
        let path = environment["PATH"] ?? ExecutableLocator.defaultPath
        // A path that is there but not executable is left to posix_spawn to report (EACCES).
        guard let executable = ExecutableLocator.search(program, path: path) ?? (program.contains("/") ? program : nil)
        else { throw .notFound(program: program) }
        var request = SpawnRequest(executable: executable, arguments: arguments, environment: environment)
        request.standardInput = standardStreams
        request.standardOutput = standardStreams
        request.standardError = standardStreams
        return ProcessExit.wait(for: try spawn(request, program: program))
    }
}
