// How a spawned child ended: exit status or signal, and captured output.
import Foundation

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
