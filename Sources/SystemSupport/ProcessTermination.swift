// How a spawned child ended: exit status or signal, and captured output.
import Glibc

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

    /// The status a shell reports for it: the exit status, or 128 + the signal (-1 when unknown).
    public var shellStatus: Int32 {
        switch self {
        case .exited(let code): return code
        case .signaled(let signal): return 128 + signal
        case .unknown: return -1
        }
    }

    /// Decodes a `waitpid` status word (the WIFEXITED/WTERMSIG macros are not importable).
    init(waitStatus status: Int32) {
        let low = status & 0x7f
        if low == 0 {
            self = .exited((status >> 8) & 0xff)
        } else if low != 0x7f {
            self = .signaled(low)
        } else {
            self = .unknown  // stopped; not requested with WUNTRACED, so not expected
        }
    }

    /// Blocks until the child `pid` has ended and reaps it; `.unknown` when it is not ours to
    /// reap (someone else waited for it).
    public static func wait(for pid: pid_t) -> ProcessExit {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, 0) } while result == -1 && errno == EINTR
        return result == pid ? ProcessExit(waitStatus: status) : .unknown
    }

    /// Reaps the child `pid` if it has ended (`WNOHANG`); nil while it runs.
    static func poll(_ pid: pid_t) -> ProcessExit? {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, WNOHANG) } while result == -1 && errno == EINTR
        if result == 0 { return nil }
        return result == pid ? ProcessExit(waitStatus: status) : .unknown
    }

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
    public var standardOutput: [UInt8]?
    /// Standard error, when `SpawnOptions.captureStandardError` was set.
    public var standardError: [UInt8]?
}
