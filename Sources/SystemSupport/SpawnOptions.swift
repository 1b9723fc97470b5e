// What a spawned child gets besides argv: stdin, extra environment, output capture, session.

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
    /// Which bytes of a longer stream are kept: the first `captureLimit` (the default) or the
    /// last (a failing program's error message comes at the end of what it wrote).
    public var captureWindow: CaptureWindow
    /// Report the exit as soon as the child itself has exited, with what its captured streams
    /// held by then, instead of waiting for their end of file. A child that starts a
    /// long-lived program (a browser, an opener's handler) hands it the pipes, and their end
    /// of file would come only when that program ends. The rest is still read (and dropped)
    /// until the end, so the program never writes into a full or closed pipe while we live.
    public var reportAtExit: Bool
    /// Start a new session (`setsid`) instead of only a new process group. Either way the
    /// child leads its own group, so `terminate` reaches its descendants.
    public var newSession: Bool
    /// The child's working directory (a desktop entry's `Path=`); nil keeps the broker's.
    public var workingDirectory: String?
    /// What `SpawnedProcess.terminate` (and `endAll`) signal: the child's whole process group
    /// (the default, so a job's helpers end with it), or the child alone.
    public var terminationTarget: TerminationTarget

    public init(
        standardInput: String? = nil, environment: [String: String] = [:],
        captureStandardOutput: Bool = false, captureStandardError: Bool = false,
        captureLimit: Int = 1 << 20, captureWindow: CaptureWindow = .head, reportAtExit: Bool = false,
        newSession: Bool = false, workingDirectory: String? = nil,
        terminationTarget: TerminationTarget = .processGroup
    ) {
        self.standardInput = standardInput
        self.environment = environment
        self.captureStandardOutput = captureStandardOutput
        self.captureStandardError = captureStandardError
        self.captureLimit = captureLimit
        self.captureWindow = captureWindow
        self.reportAtExit = reportAtExit
        self.newSession = newSession
        self.workingDirectory = workingDirectory
        self.terminationTarget = terminationTarget
    }
}

/// Which part of a captured stream longer than the limit is kept.
public enum CaptureWindow: Sendable, Equatable {
    /// The first bytes; later ones are read and dropped.
    case head
    /// The last bytes; earlier ones are dropped as later ones arrive, so memory stays bounded
    /// however much the child writes.
    case tail
}

/// Which processes ending a child signals.
public enum TerminationTarget: Sendable, Equatable {
    /// The child's process group: the child and every descendant that stayed in its group.
    case processGroup
    /// The child alone. For a program that hands what it starts to the user: a URL opener
    /// runs the browser as its own child in its group, and the browser is the user's, not
    /// the job's, like an application launched detached.
    case process
}
